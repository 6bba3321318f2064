import AsyncHTTPClient
import Benchmark
import Foundation
import Moya

/// What the network benchmarks share: the loopback server, one AsyncHTTPClient client, and
/// providers on a session over that same client, so Moya and the baselines use the same
/// connection pool and configuration (Moya's defaults).
struct Network: Sendable {
    /// A base URL never contacted (stubs).
    static let unusedURL: URL = {
        guard let url = URL(string: "https://stub.invalid") else { fatalError("Invalid stub URL") }
        return url
    }()

    let baseURL: URL
    let session: Session
    /// The provider of the async API.
    let provider: MoyaProvider<BenchAPI>
    /// Where callback-API completions run, Moya's and the baselines' alike: a serial queue, as
    /// an application would name one (the main queue is not run here).
    let callbackQueue: DispatchQueue
    /// The provider of the callback API: the same session, completions on `callbackQueue`.
    let callbackProvider: MoyaProvider<BenchAPI>

    /// The peer client of a peer benchmark (`URLSession`, `OpenAPI AHC`, `OpenAPI Moya`), built
    /// only for those, so that no other benchmark carries an idle client.
    let peer: (any PeerClient)?

    /// The server `run.sh` started (nginx), named by `MOYA_BENCH_BASE_URL`, with what
    /// `contender` needs: the providers' session sends through `URLSessionTransport` for
    /// `Moya URLSession`, else through the platform's default (AsyncHTTPClient on Linux).
    ///
    /// `connectionsPerHost`, when given, is the pool's limit for every client involved: the
    /// session's `HTTPClient` (which the baselines and the OpenAPI AHC peer share) and the
    /// URLSession peer's `httpMaximumConnectionsPerHost`. Otherwise each keeps its default:
    /// Moya's 32, URLSession's 6.
    static func start(_ contender: Contender = .moya, connectionsPerHost: Int? = nil) async throws -> Network {
        guard let value = ProcessInfo.processInfo.environment["MOYA_BENCH_BASE_URL"], let baseURL = URL(string: value)
        else {
            throw BenchmarkFailure(
                "MOYA_BENCH_BASE_URL is not set: run Benchmarks/run.sh, which starts the loopback server and sets it."
            )
        }
        let session: Session
        if contender == .moyaURLSession {
            session = Session(transport: URLSessionTransport())
        } else if let connectionsPerHost {
            var configuration = Session.Configuration()
            configuration.asyncHTTPClient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connectionsPerHost
            session = Session(configuration: configuration)
        } else {
            session = Session()
        }
        let callbackQueue = DispatchQueue(label: "benchmark.callbacks")
        return Network(
            baseURL: baseURL,
            session: session,
            provider: MoyaProvider(session: session),
            callbackQueue: callbackQueue,
            callbackProvider: MoyaProvider(callbackQueue: callbackQueue, session: session),
            peer: makePeer(contender, baseURL: baseURL, session: session, connectionsPerHost: connectionsPerHost)
        )
    }

    private static func makePeer(
        _ contender: Contender,
        baseURL: URL,
        session: Session,
        connectionsPerHost: Int?
    ) -> (any PeerClient)? {
        switch contender {
        case .urlSession:
            return URLSessionPeer(baseURL: baseURL, connectionsPerHost: connectionsPerHost)
        case .openAPIAHC:
            return OpenAPIPeer.overAsyncHTTPClient(baseURL: baseURL, client: session.httpClient)
        case .openAPIMoya:
            return OpenAPIPeer.overMoya(baseURL: baseURL, session: session)
        case .moya, .moyaURLSession, .ahcRaw, .ahcData:
            return nil
        }
    }

    /// The peer client, for the peers' benchmarks.
    func peerClient() throws -> any PeerClient {
        guard let peer else { throw BenchmarkFailure("This benchmark's fixture has no peer client.") }
        return peer
    }

    func baseline(_ style: BodyStyle) -> Baseline {
        Baseline(client: session.httpClient, baseURL: baseURL, style: style)
    }

    func moyaGET() async throws {
        let response = try await provider.request(BenchAPI(baseURL: baseURL, operation: .getJSON))
        try Self.check(response)
    }

    /// `GET /json` on the callback API; `done` runs on `callbackQueue`.
    func moyaGET(_ done: @escaping @Sendable (Error?) -> Void) {
        callbackProvider.request(BenchAPI(baseURL: baseURL, operation: .getJSON)) { result in
            done(Result { try Self.check(result.get()) }.failure)
        }
    }

    func moyaPOST(_ json: Data) async throws {
        let response = try await provider.request(BenchAPI(baseURL: baseURL, operation: .postJSON(json)))
        try Self.check(response)
    }

    func moyaDownload(to file: URL) async throws {
        let response = try await provider.request(BenchAPI(baseURL: baseURL, operation: .download(to: file)))
        try Self.check(response, allowEmpty: true)
    }

    func moyaUpload(_ file: URL) async throws {
        let response = try await provider.request(BenchAPI(baseURL: baseURL, operation: .uploadPart(file: file)))
        try Self.check(response)
    }

    private static func check(_ response: Response, allowEmpty: Bool = false) throws {
        guard response.statusCode == 200, allowEmpty || !response.data.isEmpty else {
            throw BenchmarkFailure("Moya: HTTP \(response.statusCode), \(response.data.count) bytes")
        }
    }
}

/// Who does a network benchmark's requests: the `<who>` of its name.
enum Contender: String, Sendable {
    /// Moya on the platform's default transport.
    case moya = "Moya"
    /// Moya on `URLSessionTransport`.
    case moyaURLSession = "Moya URLSession"
    case ahcRaw = "AHC raw"
    case ahcData = "AHC+Data"
    /// `URLSession` used directly (`URLSessionPeer`).
    case urlSession = "URLSession"
    /// The generated OpenAPI client on swift-openapi-async-http-client's transport.
    case openAPIAHC = "OpenAPI AHC"
    /// The same generated client on `MoyaTransport`.
    case openAPIMoya = "OpenAPI Moya"

    /// What this contender does for one operation of a benchmark, given what Moya, the
    /// baselines and the peers each do.
    func work(
        moya: @escaping @Sendable (Network) async throws -> Void,
        baseline: @escaping @Sendable (Baseline) async throws -> Void,
        peer: @escaping @Sendable (any PeerClient) async throws -> Void
    ) -> @Sendable (Network) async throws -> Void {
        switch self {
        case .moya, .moyaURLSession: return moya
        case .ahcRaw: return { try await baseline($0.baseline(.raw)) }
        case .ahcData: return { try await baseline($0.baseline(.data)) }
        case .urlSession, .openAPIAHC, .openAPIMoya: return { try await peer($0.peerClient()) }
        }
    }
}

/// Registers `<name> · <who>` for Moya on both transports, the two baselines and, when `peer`
/// is given, the three peers, each doing `requests` requests per iteration, `concurrency` at a
/// time.
func networkTrio(
    _ name: String,
    _ configuration: Benchmark.Configuration,
    requests: Int,
    concurrency: Int = 1,
    moya: @escaping @Sendable (Network) async throws -> Void,
    baseline: @escaping @Sendable (Baseline) async throws -> Void,
    peer: (@Sendable (any PeerClient) async throws -> Void)? = nil
) {
    var contenders: [Contender] = [.moya, .moyaURLSession, .ahcRaw, .ahcData]
    if peer != nil {
        contenders += [.urlSession, .openAPIAHC, .openAPIMoya]
    }
    for contender in contenders {
        let work = contender.work(moya: moya, baseline: baseline, peer: peer ?? { _ in })
        Benchmark("\(name) · \(contender.rawValue)", configuration: configuration) { benchmark, network in
            benchmark.measurement(requestsMetric, requests)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        for _ in 0..<(requests / concurrency) {
                            try await work(network)
                        }
                    }
                }
                try await group.waitForAll()
            }
        } setup: {
            try await Network.start(contender)
        }
    }
}
