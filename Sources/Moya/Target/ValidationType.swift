/// Which status codes a response must have to count as a success.
///
/// A response outside the accepted codes fails with
/// `MoyaError.underlying(MoyaError.statusCode(response), response)`.
public enum ValidationType: Equatable, Hashable, Sendable {
    /// No validation.
    case none

    /// Validate success codes (only 2xx).
    case successCodes

    /// Validate success codes and redirection codes (only 2xx and 3xx).
    case successAndRedirectCodes

    /// Validate only the given status codes.
    case customCodes([Int])

    /// The list of HTTP status codes to validate.
    public var statusCodes: [Int] {
        switch self {
        case .successCodes:
            return Array(200..<300)
        case .successAndRedirectCodes:
            return Array(200..<400)
        case .customCodes(let codes):
            return codes
        case .none:
            return []
        }
    }

    /// Whether `statusCode` passes this validation. Cheaper than `statusCodes.contains`.
    func accepts(_ statusCode: Int) -> Bool {
        switch self {
        case .none:
            return true
        case .successCodes:
            return (200..<300).contains(statusCode)
        case .successAndRedirectCodes:
            return (200..<400).contains(statusCode)
        case .customCodes(let codes):
            return codes.isEmpty || codes.contains(statusCode)
        }
    }
}
