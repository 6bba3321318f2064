import Foundation
import NIOCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLRequest` URLSession sends for an exchange, with its body and download destination,
/// built anew for every attempt from the endpoint's task (a retry sends the body again), with
/// the same checks and rules as the AsyncHTTPClient request (`PreparedTransfer`).
struct URLSessionPreparedRequest {
    /// How the body goes out.
    enum Body {
        case none
        /// In memory: the request's own bytes, or a multipart body of bytes only.
        case data(Data)
        /// A file the caller gave (`uploadFile`): sent from where it is.
        case file(URL)
        /// A multipart body with file or stream parts: written to a file of its own before
        /// sending, since URLSession streams an upload only from a file, and removed after.
        case spooled(RequestBody)
    }

    var request: URLRequest
    var body: Body
    /// The body's size; `nil` without a body.
    var uploadLength: Int64?
    /// Whether the task is an upload, whose progress counts the bytes sent.
    var reportsUploadProgress: Bool
    /// The user's closure, called once when the download is complete.
    var destination: UserValue<DownloadDestination>?

    /// - Parameters:
    ///   - idleTimeout: how long the request may go without bytes moving, set as the request's
    ///     `timeoutInterval`, which URLSession reads so (checked on Linux as on Apple's).
    /// - Throws: `MoyaError.requestMapping` for a URL that is not http(s) with a host, a
    ///   `HeaderValidation` problem for a method or header that would corrupt the request, or
    ///   the body's failure (an upload that is not a regular file).
    init(exchange: TransportExchange, sessionHeaders: SessionHeaders, idleTimeout: TimeAmount) throws {
        var request = exchange.request
        _ = try OutgoingRequest.url(of: request)
        let task = exchange.endpoint.task
        let body = try RequestBody.forTask(task, of: &request, endpointMethod: exchange.endpoint.method)
        var sessionDefaults: [(name: String, value: String)] = []
        try OutgoingRequest.checkFields(of: request, sessionHeaders: sessionHeaders) { name, value, fromSession in
            if fromSession {
                sessionDefaults.append((name, value))
            }
        }
        for (name, value) in sessionDefaults {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.timeoutInterval = Double(idleTimeout.nanoseconds) / 1e9
        // The session's HTTP cache, when it has one, is the decorator above the transport.
        request.cachePolicy = .reloadIgnoringLocalCacheData
        reportsUploadProgress = RequestBody.isUpload(task)
        uploadLength = body.map { Int64($0.length) }
        switch task {
        case .downloadDestination(let target), .downloadParameters(_, _, let target):
            destination = UserValue(target)
        default:
            destination = nil
        }
        request.httpBody = nil
        request.httpBodyStream = nil
        self.body = Self.body(for: body, task: task)
        self.request = request
    }

    private static func body(for body: RequestBody?, task: Task) -> Body {
        guard let body else { return .none }
        if case .uploadFile(let url) = task {
            return .file(url)
        }
        var bytes = Data()
        for segment in body.segments {
            guard case .bytes(let data) = segment else { return .spooled(body) }
            bytes.append(data)
        }
        return .data(bytes)
    }

    /// Writes a spooled body to a new file in `directory`. Blocks: run it off the delegate's
    /// queue. The file is removed when writing fails.
    static func spool(_ body: RequestBody, in directory: URL) throws -> URL {
        let file = try TemporaryFile.create(in: directory, prefix: "moya-upload")
        do {
            defer { try? file.handle.close() }
            try body.readAll { try file.handle.write(contentsOf: $0) }
            return file.url
        } catch {
            try? FileManager.default.removeItem(at: file.url)
            throw error
        }
    }
}
