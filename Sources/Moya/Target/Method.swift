/// An HTTP method, such as `GET` or `POST`.
///
/// A struct rather than an enum so that any method a server understands can be expressed, as
/// `Method(rawValue: "PURGE")`.
public struct Method: RawRepresentable, Hashable, Sendable {
    /// `CONNECT` method.
    public static let connect = Method(rawValue: "CONNECT")
    /// `DELETE` method.
    public static let delete = Method(rawValue: "DELETE")
    /// `GET` method.
    public static let get = Method(rawValue: "GET")
    /// `HEAD` method.
    public static let head = Method(rawValue: "HEAD")
    /// `OPTIONS` method.
    public static let options = Method(rawValue: "OPTIONS")
    /// `PATCH` method.
    public static let patch = Method(rawValue: "PATCH")
    /// `POST` method.
    public static let post = Method(rawValue: "POST")
    /// `PUT` method.
    public static let put = Method(rawValue: "PUT")
    /// `QUERY` method.
    public static let query = Method(rawValue: "QUERY")
    /// `TRACE` method.
    public static let trace = Method(rawValue: "TRACE")

    /// The method's name as sent on the wire.
    public let rawValue: String

    /// Creates a method from its name, as sent on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}

extension Method {
    /// Whether a request with this method may carry a multipart body.
    public var supportsMultipart: Bool {
        switch self {
        case .post, .put, .patch, .connect:
            return true
        default:
            return false
        }
    }
}
