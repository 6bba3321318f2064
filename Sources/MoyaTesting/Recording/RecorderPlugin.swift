import Foundation
import Moya

/// The recorder's plugin: writes fixtures as responses arrive (a streamed one as its chunks),
/// and finishes replayed downloads.
struct RecorderPlugin: StreamPluginType {
    let recorder: Recorder

    func didReceive(chunk: Data, target: TargetType) {
        guard recorder.mode != .replay, let id = RequestContext.current?.requestID else { return }
        recorder.streamChunks.withLockedValue { $0[id, default: []].append(chunk) }
    }

    func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
        let chunks = RequestContext.current.flatMap { context in
            recorder.streamChunks.withLockedValue { $0.removeValue(forKey: context.requestID) }
        }
        guard recorder.mode != .replay, let response = Self.response(in: result), let request = response.request else {
            return
        }
        // A stubbed download has no file: in `.recordMissing` it came from its fixture.
        if Self.isDownload(target.task), response.fileURL == nil, recorder.mode == .recordMissing {
            return
        }
        let name = FixtureName(target: target, request: request, redaction: recorder.redaction)
        do {
            let fixture = try makeFixture(response: response, request: request, name: name, chunks: chunks)
            try recorder.store.write(fixture, to: name, onlyIfMissing: recorder.mode == .recordMissing)
        } catch {
            recorder.pendingFailures.withLockedValue { $0[ObjectIdentifier(response)] = error }
        }
    }

    func process(_ result: Result<Moya.Response, MoyaError>, target: TargetType) -> Result<Moya.Response, MoyaError> {
        guard let response = Self.response(in: result) else { return result }
        if let failure = recorder.pendingFailures.withLockedValue({ $0.removeValue(forKey: ObjectIdentifier(response)) }
        ) {
            return .failure(.underlying(failure, response))
        }
        // The network path moves every successful download to its destination and reports
        // where; a download answered from a fixture has no file yet.
        guard recorder.mode != .record, case .success = result, response.fileURL == nil,
            let destination = Self.downloadDestination(of: target.task)
        else { return result }
        do {
            try ReplayedDownload.place(response, at: destination)
            return result
        } catch {
            return .failure(.underlying(error, response))
        }
    }

    private func makeFixture(
        response: Moya.Response,
        request: URLRequest,
        name: FixtureName,
        chunks: [Data]?
    ) throws(FixtureError) -> Fixture {
        let redaction = recorder.redaction
        var body = chunks.map { $0.reduce(into: Data()) { $0.append($1) } } ?? response.data
        if let file = response.fileURL {
            do {
                body = try Data(contentsOf: file)
            } catch {
                throw FixtureError(
                    kind: .unwritable,
                    fileURL: recorder.store.fileURL(for: name),
                    reason: "the downloaded file cannot be read: \(error)"
                )
            }
        }
        var responseHeaders = Self.headers(of: response.response)
        let redactedBody = redaction.redact(
            body: body,
            contentType: Self.value(of: "Content-Type", in: responseHeaders)
        )
        if redactedBody != body,
            let lengthHeader = responseHeaders.keys.first(where: {
                $0.caseInsensitiveCompare("Content-Length") == .orderedSame
            })
        {
            // The replayed body is the redacted one: its length must agree with it.
            responseHeaders[lengthHeader] = String(redactedBody.count)
        }
        let responseBody = Fixture.encode(body: redactedBody)
        // Chunks are kept as they came unless redaction changed the body: then the redacted
        // body is the one chunk, so that no secret survives in the chunks.
        let recordedChunks = chunks.map { Fixture.encode(chunks: redactedBody == body ? $0 : [redactedBody]) }
        let requestBody = request.httpBody.map {
            Fixture.encode(
                body: redaction.redact(body: $0, contentType: request.value(forHTTPHeaderField: "Content-Type"))
            )
        }
        return Fixture(
            request: .init(
                method: (request.httpMethod ?? "GET").uppercased(),
                url: request.url.map { redaction.redact(url: $0).absoluteString } ?? "",
                headers: redaction.redact(headers: request.allHTTPHeaderFields ?? [:]),
                body: requestBody?.text,
                bodyEncoding: requestBody?.encoding
            ),
            response: .init(
                statusCode: response.statusCode,
                headers: redaction.redact(headers: responseHeaders),
                body: responseBody.text,
                bodyEncoding: responseBody.encoding,
                isDownload: response.fileURL == nil ? nil : true,
                chunks: recordedChunks?.texts,
                chunksEncoding: recordedChunks?.encoding
            )
        )
    }

    /// The response a result carries, including the one inside a validation error.
    private static func response(in result: Result<Moya.Response, MoyaError>) -> Moya.Response? {
        switch result {
        case .success(let response):
            return response
        case .failure(let error):
            return error.response
        }
    }

    private static func headers(of response: HTTPURLResponse?) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response?.allHeaderFields ?? [:] {
            if let name = name as? String {
                headers[name] = value as? String ?? "\(value)"
            }
        }
        return headers
    }

    private static func value(of name: String, in headers: [String: String]) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    private static func isDownload(_ task: Moya.Task) -> Bool {
        downloadDestination(of: task) != nil
    }

    private static func downloadDestination(of task: Moya.Task) -> DownloadDestination? {
        switch task {
        case .downloadDestination(let destination), .downloadParameters(_, _, let destination):
            return destination
        default:
            return nil
        }
    }
}
