import Foundation

/// A failure of the package's own, as opposed to the server's answer or the network's fault:
/// one type to match on, by its `code`.
///
/// It reaches callers inside `MoyaError.underlying(_, response)`, as every other underlying
/// error does, so Moya's `MoyaError` keeps exactly Moya 15's cases. Network faults stay in
/// `NSURLErrorDomain`, as URLSession reports them; a server's refused status stays
/// `MoyaError.statusCode`.
///
/// ```swift
/// catch MoyaError.underlying(let error as MoyaClientError, _) where error.code == .bodyTooLarge {
///     // the body was larger than the limit given to collect(upTo:)
/// } catch {
///     // everything else
/// }
/// ```
///
/// Keep a last `catch` after such a clause: Swift 6.3 fails to compile a `do` around the async
/// API (`throws(MoyaError)`) whose pattern clauses leave errors to an enclosing `catch`.
///
/// Its `description` names what was refused and what to do; `url`, `limit` and `name` carry
/// the facts a program may act on, where the code has them.
public struct MoyaClientError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong: a value to compare with the constants below.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The constant's name, as in `MoyaClientError.Code.bodyTooLarge`.
        public var description: String { name }

        // MARK: Refused before anything is sent

        /// The request's method is not an RFC 9110 token; it would corrupt the request line.
        public static let invalidMethod = Code("invalidMethod")
        /// A header's name or value would corrupt the request (CR, LF, a control byte).
        public static let invalidHeader = Code("invalidHeader")
        /// A file to upload is a directory, a FIFO, a socket or a device; `name` is its path.
        public static let notARegularFile = Code("notARegularFile")
        /// The session was shut down; `url` is the request it refused.
        public static let sessionShutDown = Code("sessionShutDown")
        /// The transport cannot apply a setting of the session on this platform, and refuses
        /// the request rather than send it without.
        public static let unsupportedSetting = Code("unsupportedSetting")

        // MARK: While sending

        /// A file or stream to upload ended before the length announced in `Content-Length`.
        public static let uploadShorterThanAnnounced = Code("uploadShorterThanAnnounced")
        /// A multipart part's `InputStream` was read by an earlier attempt and cannot be sent
        /// again; `name` is the part's name.
        public static let uploadStreamAlreadyRead = Code("uploadStreamAlreadyRead")
        /// A pinned host presented a certificate whose public key is not pinned; `name` is the
        /// host.
        public static let serverTrust = Code("serverTrust")

        // MARK: While reading a streamed answer

        /// A body grew beyond the limit given to `collect(upTo:)`; `limit` is that limit.
        public static let bodyTooLarge = Code("bodyTooLarge")
        /// A streamed body was iterated a second time.
        public static let streamAlreadyConsumed = Code("streamAlreadyConsumed")
        /// A server-sent event grew beyond the parser's maximum size; `limit` is that size.
        public static let eventTooLarge = Code("eventTooLarge")
        /// An event stream was answered with another `Content-Type`; `name` is that type.
        public static let unexpectedContentType = Code("unexpectedContentType")

        // MARK: Refused by a resilience policy, before anything is sent

        /// The host's circuit breaker is open (`CircuitBreaker`); `name` is the policy key,
        /// `retryAfter` when the next trial request is allowed.
        public static let circuitOpen = Code("circuitOpen")
        /// The host's concurrency limit had no place: its line was full, or the request waited
        /// longer than the limit's `maximumWait` (`ConcurrencyLimit`); `name` is the policy key.
        public static let concurrencyLimitReached = Code("concurrencyLimitReached")
        /// The host's rate limit would have held the request longer than its `maximumWait`
        /// (`RateLimit`); `name` is the policy key, `retryAfter` when it could have gone.
        public static let rateLimited = Code("rateLimited")
    }

    /// What went wrong.
    public let code: Code

    /// What happened and what to do, naming the request, header, file or limit concerned.
    public let description: String

    /// The URL of the request concerned, when the failure concerns one request.
    public let url: URL?

    /// The limit that was exceeded, in bytes, for `bodyTooLarge` and `eventTooLarge`.
    public let limit: Int?

    /// The header, file path, multipart part, host or content type concerned, as each code's
    /// documentation says.
    public let name: String?

    /// When the request could be tried again, for `circuitOpen` and `rateLimited`.
    public let retryAfter: Date?

    /// Creates an error with its code and explanation: how a transport of your own reports a
    /// failure of the same kind as the package's.
    public init(
        code: Code,
        description: String,
        url: URL? = nil,
        limit: Int? = nil,
        name: String? = nil,
        retryAfter: Date? = nil
    ) {
        self.code = code
        self.description = description
        self.url = url
        self.limit = limit
        self.name = name
        self.retryAfter = retryAfter
    }

    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension MoyaError {
    /// The package's own error this one wraps (`.underlying(MoyaClientError, _)`), if any.
    public var clientError: MoyaClientError? {
        guard case .underlying(let error, _) = self else { return nil }
        return error as? MoyaClientError
    }
}
