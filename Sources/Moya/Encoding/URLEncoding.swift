import Foundation

/// Encodes parameters as a URL-encoded query string, either in the URL's query or in the body.
///
/// Keys are sorted so that equal parameters always give the same bytes, nested dictionaries
/// use `key[nested]`, arrays follow `arrayEncoding` and booleans follow `boolEncoding`.
/// Characters are escaped as RFC 3986 asks of a query component.
public struct URLEncoding: ParameterEncoding {
    /// Where the encoded parameters go.
    public enum Destination: Sendable {
        /// The query for `GET`, `HEAD` and `DELETE`; the body for every other method.
        case methodDependent
        /// Always the URL's query.
        case queryString
        /// Always the body, as `application/x-www-form-urlencoded`.
        case httpBody

        func encodesParametersInURL(for method: Moya.Method) -> Bool {
            switch self {
            case .methodDependent:
                return method == .get || method == .head || method == .delete
            case .queryString:
                return true
            case .httpBody:
                return false
            }
        }
    }

    /// How the keys of array elements are written.
    public enum ArrayEncoding: Sendable {
        /// `key[]=1&key[]=2`.
        case brackets
        /// `key=1&key=2`.
        case noBrackets
        /// `key[0]=1&key[1]=2`.
        case indexInBrackets
        /// A key of your own for each index.
        case custom(@Sendable (_ key: String, _ index: Int) -> String)

        func encode(key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets:
                return "\(key)[]"
            case .noBrackets:
                return key
            case .indexInBrackets:
                return "\(key)[\(index)]"
            case .custom(let encoding):
                return encoding(key, index)
            }
        }
    }

    /// How booleans are written.
    public enum BoolEncoding: Sendable {
        /// `1` and `0`.
        case numeric
        /// `true` and `false`.
        case literal

        func encode(_ value: Bool) -> String {
            switch self {
            case .numeric:
                return value ? "1" : "0"
            case .literal:
                return value ? "true" : "false"
            }
        }
    }

    /// Method-dependent destination, bracketed arrays, numeric booleans.
    public static var `default`: URLEncoding { URLEncoding() }

    /// Always in the URL's query.
    public static var queryString: URLEncoding { URLEncoding(destination: .queryString) }

    /// Always in the body.
    public static var httpBody: URLEncoding { URLEncoding(destination: .httpBody) }

    /// Where the encoded parameters go.
    public let destination: Destination

    /// How array keys are written.
    public let arrayEncoding: ArrayEncoding

    /// How booleans are written.
    public let boolEncoding: BoolEncoding

    /// Creates an encoding.
    public init(
        destination: Destination = .methodDependent,
        arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric
    ) {
        self.destination = destination
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }

    /// Applies `parameters` to the request's query or body.
    ///
    /// In the query, the parameters are appended to any query the URL already has. In the body,
    /// `Content-Type` becomes `application/x-www-form-urlencoded; charset=utf-8` unless set.
    public func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        var urlRequest = try urlRequest.asURLRequest()
        try encode(into: &urlRequest, with: parameters)
        return urlRequest
    }

    /// `encode(_:with:)` on a request the caller owns, changed in place: on Linux, changing a
    /// `URLRequest` that another value still holds copies it whole, normalising every header
    /// name again, which cost a stubbed request with parameters more than encoding them.
    func encode(into urlRequest: inout URLRequest, with parameters: Parameters?) throws {
        guard let parameters else { return }
        let method = urlRequest.method ?? .get
        if destination.encodesParametersInURL(for: method) {
            guard let url = urlRequest.url else { throw ParameterEncodingError.missingURL }
            guard !parameters.isEmpty else { return }
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
                throw ParameterEncodingError.missingURL
            }
            let query = query(parameters)
            if let existing = components.percentEncodedQuery, !existing.isEmpty {
                components.percentEncodedQuery = existing + "&" + query
            } else {
                components.percentEncodedQuery = query
            }
            guard let encodedURL = components.url else { throw ParameterEncodingError.missingURL }
            urlRequest.url = encodedURL
        } else {
            if urlRequest.value(forHTTPHeaderField: "Content-Type") == nil {
                urlRequest.setValue(
                    "application/x-www-form-urlencoded; charset=utf-8",
                    forHTTPHeaderField: "Content-Type"
                )
            }
            urlRequest.httpBody = Data(query(parameters).utf8)
        }
    }

    /// Returns the escaped key/value pairs for one parameter, recursing into dictionaries and
    /// arrays.
    public func queryComponents(fromKey key: String, value: Any) -> [(String, String)] {
        var pairs = EscapedPairs()
        flattener.flatten(key: key, value: value, into: &pairs)
        return pairs.pairs
    }

    /// Percent-escapes a string for a query component (RFC 3986, section 3.4): the general and
    /// sub-delimiters are escaped, `?` and `/` are kept.
    public func escape(_ string: String) -> String {
        QueryEscaping.escape(string)
    }

    private var flattener: QueryFlattener {
        QueryFlattener(arrayEncoding: arrayEncoding, boolEncoding: boolEncoding)
    }

    private func query(_ parameters: [String: Any]) -> String {
        flattener.query(parameters)
    }
}
