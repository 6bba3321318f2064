import Foundation
import Moya
import NIOConcurrencyHelpers

/// Records real responses to fixture files, and replays them as stubs.
///
/// One fixture file per distinct request, at
/// `<directory>/<TargetTypeName>/<case-or-path>-<METHOD>-<hash>.json`, holding the status,
/// headers and body (text when UTF-8, else base64) of the response, and the request it
/// answered. Secrets never reach a file: see `Redaction`.
///
/// Build a provider with the recorder, either in one line:
///
/// ```swift
/// let recorder = Recorder(directory: fixturesURL, mode: .replay)
/// let provider = MoyaProvider<GitHub>(recorder: recorder)
/// ```
///
/// or from its parts, when you assemble the provider yourself:
///
/// ```swift
/// let provider = MoyaProvider<GitHub>(
///     endpointClosure: recorder.endpointClosure(),
///     stubClosure: recorder.stubClosure(),
///     plugins: [recorder.plugin]
/// )
/// ```
///
/// A custom endpoint closure goes to both `endpointClosure(wrapping:)` and
/// `stubClosure(endpointClosure:)`.
///
/// The recorder's plugin writes a fixture in `didReceive`, before the request completes, so a
/// file exists once `await provider.request(...)` returns. A failure to write it turns the
/// request's result into a `MoyaError` carrying a `FixtureError`. Requests that fail without a
/// response (connection refused, say) are not recorded.
public final class Recorder: Sendable {
    /// The folder fixture files are read from and written to.
    public let directory: URL

    /// Whether requests go to the network, to fixtures, or to fixtures when they exist.
    public let mode: Mode

    /// The secrets kept out of fixture files.
    public let redaction: Redaction

    let store: FixtureStore

    /// Write failures seen in `didReceive`, reported by `process` for the same response.
    let pendingFailures = NIOLockedValueBox<[ObjectIdentifier: FixtureError]>([:])

    /// The chunks of the streams being recorded, by `RequestContext.requestID`.
    let streamChunks = NIOLockedValueBox<[String: [Data]]>([:])

    /// Creates a recorder.
    ///
    /// - Parameters:
    ///   - directory: The folder holding the fixtures, created when the first one is written.
    ///   - mode: `.record`, `.replay` or `.recordMissing`.
    ///   - redaction: Headers, query parameters and JSON fields to keep out of the files, on
    ///     top of `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`.
    public init(directory: URL, mode: Mode, redaction: Redaction = Redaction()) {
        self.directory = directory
        self.mode = mode
        self.redaction = redaction
        self.store = FixtureStore(directory: directory)
    }

    /// The plugin that writes fixtures (in `.record` and `.recordMissing`) and puts replayed
    /// downloads at their destination. Put it first in the provider's plugins, so its `process`
    /// sees the result as it came.
    public var plugin: PluginType {
        RecorderPlugin(recorder: self)
    }

    /// An endpoint closure that answers stubbed requests from their fixture files.
    ///
    /// - Parameter base: The endpoint closure to wrap; the endpoint it returns is kept, only its
    ///   sample response changes.
    public func endpointClosure<Target: TargetType>(
        wrapping base: @escaping MoyaProvider<Target>.EndpointClosure = {
            MoyaProvider<Target>.defaultEndpointMapping(for: $0)
        }
    ) -> MoyaProvider<Target>.EndpointClosure {
        { [self] target in
            let endpoint = base(target)
            // An endpoint that builds no request fails in the provider with its own error.
            guard let request = try? endpoint.urlRequest() else { return endpoint }
            let name = FixtureName(target: target, request: request, redaction: redaction)
            return
                endpoint
                .replacing(sampleResponseClosure: { [self] in sampleResponse(for: name, request: request) })
                .replacing(sampleStreamClosure: { [self] in sampleStream(for: name, request: request) })
        }
    }

    /// A stub closure following the mode: never stub in `.record`, always in `.replay`, and in
    /// `.recordMissing` only the requests whose fixture exists.
    ///
    /// - Parameters:
    ///   - base: The endpoint closure the provider's endpoints come from (the one given to
    ///     `endpointClosure(wrapping:)`), needed to find a target's fixture.
    ///   - behavior: How replayed requests are answered: `.immediate` or `.delayed(seconds:)`.
    public func stubClosure<Target: TargetType>(
        endpointClosure base: @escaping MoyaProvider<Target>.EndpointClosure = {
            MoyaProvider<Target>.defaultEndpointMapping(for: $0)
        },
        behavior: StubBehavior = .immediate
    ) -> MoyaProvider<Target>.StubClosure {
        { [self] target in
            switch mode {
            case .record:
                return .never
            case .replay:
                return behavior
            case .recordMissing:
                guard let name = fixtureName(for: target, endpointClosure: base) else { return .never }
                return store.exists(name) ? behavior : .never
            }
        }
    }

    /// Where the fixture of `target` is (or would be) stored; `nil` when the target's endpoint
    /// builds no request.
    public func fixtureURL<Target: TargetType>(
        for target: Target,
        endpointClosure base: MoyaProvider<Target>.EndpointClosure = {
            MoyaProvider<Target>.defaultEndpointMapping(for: $0)
        }
    ) -> URL? {
        fixtureName(for: target, endpointClosure: base).map(store.fileURL(for:))
    }

    private func fixtureName<Target: TargetType>(
        for target: Target,
        endpointClosure base: MoyaProvider<Target>.EndpointClosure
    ) -> FixtureName? {
        guard let request = try? base(target).urlRequest() else { return nil }
        return FixtureName(target: target, request: request, redaction: redaction)
    }

    /// A recorded stream's chunks as a sample stream; `nil` for a fixture without chunks, or
    /// none, which the sample response then answers (with its error, for a missing file).
    private func sampleStream(for name: FixtureName, request: URLRequest) -> SampleStream? {
        guard let fixture = try? store.read(name, for: ""), let texts = fixture.response.chunks else { return nil }
        let encoding = fixture.response.chunksEncoding ?? .utf8
        var chunks: [Data] = []
        for text in texts {
            guard let chunk = Fixture.decode(body: text, encoding: encoding) else { return nil }
            chunks.append(chunk)
        }
        return SampleStream(
            statusCode: fixture.response.statusCode,
            headers: fixture.response.headers,
            parts: chunks.map { .chunk($0) }
        )
    }

    /// The fixture as a sample response, or the error naming the file that is missing.
    private func sampleResponse(for name: FixtureName, request: URLRequest) -> EndpointSampleResponse {
        let description =
            "\(request.httpMethod ?? "GET") \(request.url.map { redaction.redact(url: $0).absoluteString } ?? "")"
        do {
            let fixture = try store.read(name, for: description)
            guard let body = Fixture.decode(body: fixture.response.body, encoding: fixture.response.bodyEncoding) else {
                let error = FixtureError(
                    kind: .unreadable,
                    fileURL: store.fileURL(for: name),
                    reason: "the body is not valid base64"
                )
                return .networkError(error.nsError)
            }
            let url = request.url ?? store.fileURL(for: name)
            guard
                let response = HTTPURLResponse(
                    url: url,
                    statusCode: fixture.response.statusCode,
                    httpVersion: "HTTP/1.1",
                    headerFields: fixture.response.headers
                )
            else {
                return .networkResponse(fixture.response.statusCode, body)
            }
            return .response(response, body)
        } catch {
            return .networkError(error.nsError)
        }
    }
}
