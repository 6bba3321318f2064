import Foundation

/// Each failure of the package's own, with the text that explains it: the one place its
/// wording lives.
extension MoyaClientError {
    /// The method is not a token.
    static func invalidMethod(_ method: String) -> MoyaClientError {
        MoyaClientError(
            code: .invalidMethod,
            description:
                "Invalid HTTP method \"\(method.debugDescription.dropFirst().dropLast())\": a method must be an RFC 9110 token.",
            name: method
        )
    }

    /// The header `name` (or its value) cannot be sent, for `reason`.
    static func invalidHeader(_ name: String, reason: String) -> MoyaClientError {
        MoyaClientError(
            code: .invalidHeader,
            description: "Invalid header \"\(name.debugDescription.dropFirst().dropLast())\": \(reason).",
            name: name
        )
    }

    /// `path` is a `kind`, not a regular file.
    static func notARegularFile(path: String, kind: FileKind) -> MoyaClientError {
        MoyaClientError(
            code: .notARegularFile,
            description: "\(path) is \(kind), not a regular file: only regular files can be uploaded.",
            name: path
        )
    }

    /// The session was shut down before the request to `url` was sent. AsyncHTTPClient's own
    /// error for this (`HTTPClientError.alreadyShutdown`) says nothing of which object to look
    /// at; this one does, and names the request.
    static func sessionShutDown(url: URL?) -> MoyaClientError {
        let request = url.map { " to \($0.absoluteString)" } ?? ""
        return MoyaClientError(
            code: .sessionShutDown,
            description: "The request\(request) was not sent: its session was shut down (Session.shutdown(), "
                + "or the shutdown of the HTTPClient it was given). Create a new Session to send requests.",
            url: url
        )
    }

    /// The transport cannot apply `setting`, for `reason`.
    static func unsupportedSetting(_ setting: String, reason: String) -> MoyaClientError {
        MoyaClientError(
            code: .unsupportedSetting,
            description: "The request was not sent: \(setting) cannot be applied through URLSession here: \(reason).",
            name: setting
        )
    }

    /// An upload's source ended `missing` bytes early.
    static func uploadShorterThanAnnounced(missing: UInt64) -> MoyaClientError {
        MoyaClientError(
            code: .uploadShorterThanAnnounced,
            description: "The upload source ended \(missing) bytes before its announced length."
        )
    }

    /// The multipart part `partName` is a stream an earlier attempt read.
    static func uploadStreamAlreadyRead(partName: String) -> MoyaClientError {
        MoyaClientError(
            code: .uploadStreamAlreadyRead,
            description: "The multipart part \"\(partName)\" is an InputStream that an earlier attempt already "
                + "read, so the request cannot be sent again. Give the part as Data or as a file to allow retries.",
            name: partName
        )
    }

    /// `host`'s certificate carries no pinned key.
    static func serverTrust(host: String) -> MoyaClientError {
        MoyaClientError(
            code: .serverTrust,
            description: "The certificate of \(host) does not carry a pinned public key.",
            name: host
        )
    }

    /// A body exceeded `limit` bytes.
    static func bodyTooLarge(limit: Int) -> MoyaClientError {
        MoyaClientError(
            code: .bodyTooLarge,
            description: "The response body exceeded \(limit) bytes.",
            limit: limit
        )
    }

    /// A streamed body was read twice.
    static let streamAlreadyConsumed = MoyaClientError(
        code: .streamAlreadyConsumed,
        description: "The response body was already read: a stream's chunks can be iterated only once."
    )

    /// A server-sent event exceeded `limit` bytes.
    static func eventTooLarge(limit: Int) -> MoyaClientError {
        MoyaClientError(
            code: .eventTooLarge,
            description: "A server-sent event exceeded \(limit) bytes without ending; the stream was abandoned.",
            limit: limit
        )
    }

    /// An event stream was answered with `contentType`.
    static func unexpectedContentType(_ contentType: String) -> MoyaClientError {
        MoyaClientError(
            code: .unexpectedContentType,
            description: "The server answered the event stream request with Content-Type \"\(contentType)\", "
                + "not \"text/event-stream\"; the stream ends without reconnecting.",
            name: contentType
        )
    }

    /// The breaker for `key` is open until `retryAfter`.
    static func circuitOpen(key: String, url: URL?, retryAfter: Date) -> MoyaClientError {
        MoyaClientError(
            code: .circuitOpen,
            description: "The request was not sent: the circuit breaker for \(key) is open after repeated failures; "
                + "the next trial request is allowed in \(secondsUntil(retryAfter)) seconds.",
            url: url,
            name: key,
            retryAfter: retryAfter
        )
    }

    /// No place for `key` within the concurrency limit, for `reason`.
    static func concurrencyLimitReached(key: String, url: URL?, reason: String) -> MoyaClientError {
        MoyaClientError(
            code: .concurrencyLimitReached,
            description: "The request was not sent: the concurrency limit for \(key) had no place (\(reason)).",
            url: url,
            name: key
        )
    }

    /// The rate limit for `key` would hold the request until `retryAfter`, past its maximum wait.
    static func rateLimited(key: String, url: URL?, retryAfter: Date) -> MoyaClientError {
        MoyaClientError(
            code: .rateLimited,
            description: "The request was not sent: the rate limit for \(key) would hold it "
                + "\(secondsUntil(retryAfter)) seconds, longer than its maximum wait.",
            url: url,
            name: key,
            retryAfter: retryAfter
        )
    }

    /// The seconds from now until `date`, to a tenth, for a description.
    private static func secondsUntil(_ date: Date) -> String {
        String(format: "%.1f", max(0, date.timeIntervalSinceNow))
    }
}
