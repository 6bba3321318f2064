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

    /// The server `run.sh` started (nginx), named by `MOYA_BENCH_BASE_URL`; the providers'
    /// session sends through `URLSessionTransport` when `onURLSession`, else through the
    /// platform's default (AsyncHTTPClient on Linux).
    static func start(onURLSession: Bool = false) async throws -> Network {
        guard let value = ProcessInfo.processInfo.environment["MOYA_BENCH_BASE_URL"], let baseURL = URL(string: value) else {
            throw BenchmarkFailure(
                "MOYA_BENCH_BASE_URL is not set: run Benchmarks/run.sh, which starts the loopback server and sets it."
            )
        }
        let session = onURLSession ? Session(transport: URLSessionTransport()) : Session()
        let callbackQueue = DispatchQueue(label: "benchmark.callbacks")
        return Network(
            baseURL: baseURL,
            session: session,
            provider: MoyaProvider(session: session),
            callbackQueue: callbackQueue,
            callbackProvider: MoyaProvider(callbackQueue: callbackQueue, session: session)
        )
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

/// Registers `<name> · Moya`, `<name> · AHC raw` and `<name> · AHC+Data`, each doing
/// `requests` requests per iteration, `concurrency` at a time.
func networkTrio(
    _ name: String,
    _ configuration: Benchmark.Configuration,
    requests: Int,
    concurrency: Int = 1,
    moya: @escaping @Sendable (Network) async throws -> Void,
    baseline: @escaping @Sendable (Baseline) async throws -> Void
) {
    let variants: [(String, @Sendable (Network) async throws -> Void)] = [
        ("Moya", moya),
        ("Moya URLSession", moya),
        ("AHC raw", { try await baseline($0.baseline(.raw)) }),
        ("AHC+Data", { try await baseline($0.baseline(.data)) }),
    ]
    for (who, work) in variants {
        let onURLSession = who == "Moya URLSession"
        Benchmark("\(name) · \(who)", configuration: configuration) { benchmark, network in
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
            try await Network.start(onURLSession: onURLSession)
        }
    }
}
