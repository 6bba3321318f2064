import AsyncHTTPClient
import Benchmark
import Foundation
import Moya
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat

// Naming: every benchmark is "<work> · <who>", where <who> is "Moya" (on the platform's default
// transport, AsyncHTTPClient on Linux), "Moya URLSession" (on `URLSessionTransport`), "AHC raw",
// "AHC+Data" or "JSONDecoder"; `compare.py` pairs them by <work>. Each iteration does a batch of
// operations and reports its size in the "requests" custom metric, so that the per-iteration
// figures can be turned into per-request ones. Batches are sized for iterations of a few hundred
// milliseconds against nginx on loopback: CPU time is counted in 10 ms scheduler ticks.

/// Requests (or transfers, decodes, conversions) per iteration.
let requestsMetric = BenchmarkMetric.custom("requests", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [
        .throughput, .wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident, requestsMetric,
    ]
    let quick = Benchmark.Configuration(
        metrics: metrics,
        warmupIterations: 2,
        maxDuration: .seconds(6),
        maxIterations: 1_000_000
    )
    let transfer = Benchmark.Configuration(
        metrics: metrics,
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 3
    )

    // MARK: Over loopback

    // GET on the async API: Moya's `try await provider.request(_:)` against AsyncHTTPClient's
    // async API (`HTTPClientRequest`).
    for (concurrency, requests) in [(1, 4096), (32, 8192)] {
        networkTrio("GET 1 KB JSON × \(concurrency), async API", quick, requests: requests, concurrency: concurrency,
                    moya: { network in try await network.moyaGET() },
                    baseline: { baseline in try await baseline.getJSON() })
    }

    // GET on the callback API: Moya's `request(_:completion:)` with a `callbackQueue` against
    // AsyncHTTPClient's `execute(request:)`, whose future's result is handed to the same kind
    // of queue. Each completion starts the next request, with no task per request.
    for (concurrency, requests) in [(1, 4096), (32, 8192)] {
        callbackTrio("GET 1 KB JSON × \(concurrency), callback API", quick, requests: requests, concurrency: concurrency,
                     moya: { network, done in network.moyaGET(done) },
                     baseline: { baseline, queue, done in baseline.getJSON(completingOn: queue, done) })
    }

    let json64KB = Payloads.json64KB
    let json64KBBuffer = ByteBuffer(data: json64KB)
    networkTrio("POST 64 KB JSON", quick, requests: 2048,
                moya: { network in try await network.moyaPOST(json64KB) },
                baseline: { baseline in try await baseline.postJSON(json64KB, json64KBBuffer) })

    transferTrio("Download to a file", transfer,
                 moya: { network, files in try await network.moyaDownload(to: files.downloadDestination) },
                 baseline: { baseline, files in try await baseline.download(to: files.downloadDestination) })

    transferTrio("Multipart upload of a file part", transfer,
                 moya: { network, files in try await network.moyaUpload(files.uploadFile) },
                 baseline: { baseline, files in try await baseline.uploadPart(file: files.uploadFile) })

    // MARK: In memory

    Benchmark("Stubbed request with 2 plugins · Moya", configuration: quick) { benchmark, provider in
        let target = BenchAPI(baseURL: Network.unusedURL, operation: .getJSON)
        benchmark.measurement(requestsMetric, 50000)
        for _ in 0..<50000 {
            let response = try await provider.request(target)
            blackHole(response)
        }
    } setup: {
        MoyaProvider<BenchAPI>(stubClosure: MoyaProvider.immediatelyStub, plugins: twoPlugins())
    }

    Benchmark("Endpoint to URLRequest with 20 URL-encoded parameters · Moya", configuration: quick) { benchmark, endpoint in
        benchmark.measurement(requestsMetric, 2000)
        for _ in 0..<2000 {
            blackHole(try endpoint.urlRequest())
        }
    } setup: {
        ParametersEndpoint(endpoint: Endpoint(
            url: "https://api.example.com/v1/search",
            sampleResponseClosure: { .networkResponse(200, Data()) },
            method: .get,
            task: .requestParameters(parameters: twentyParameters(), encoding: URLEncoding.queryString),
            httpHeaderFields: ["Accept": "application/json"]
        ))
    }

    cacheBenchmarks(quick)
    eventStreamBenchmarks(quick)

    let response = Response(statusCode: 200, data: Payloads.json1MB)
    Benchmark("map(Decodable) of 1 MB · Moya", configuration: quick) { benchmark in
        benchmark.measurement(requestsMetric, 4)
        for _ in 0..<4 {
            blackHole(try response.map([Payloads.Record].self))
        }
    }
    Benchmark("map(Decodable) of 1 MB · JSONDecoder", configuration: quick) { benchmark in
        benchmark.measurement(requestsMetric, 4)
        for _ in 0..<4 {
            blackHole(try JSONDecoder().decode([Payloads.Record].self, from: response.data))
        }
    }
}

/// An `Endpoint` handed from a benchmark's setup to its closure.
///
/// - Note: `@unchecked Sendable` only so package-benchmark can carry it: setup and closure run
///   one after the other, and the endpoint is only read.
struct ParametersEndpoint: @unchecked Sendable {
    let endpoint: Endpoint

    func urlRequest() throws -> URLRequest {
        try endpoint.urlRequest()
    }
}

// MARK: - Network fixture

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

/// Registers `<name> · Moya`, `<name> · AHC raw` and `<name> · AHC+Data` on callback APIs, each
/// doing `requests` requests per iteration as `concurrency` chains: each completion starts the
/// chain's next request, until every chain has done its share.
func callbackTrio(
    _ name: String,
    _ configuration: Benchmark.Configuration,
    requests: Int,
    concurrency: Int = 1,
    moya: @escaping @Sendable (Network, _ done: @escaping @Sendable (Error?) -> Void) -> Void,
    baseline: @escaping @Sendable (Baseline, DispatchQueue, _ done: @escaping @Sendable (Error?) -> Void) -> Void
) {
    typealias Start = @Sendable (Network, _ done: @escaping @Sendable (Error?) -> Void) -> Void
    let variants: [(String, Start)] = [
        ("Moya", moya),
        ("Moya URLSession", moya),
        ("AHC raw", { network, done in baseline(network.baseline(.raw), network.callbackQueue, done) }),
        ("AHC+Data", { network, done in baseline(network.baseline(.data), network.callbackQueue, done) }),
    ]
    for (who, start) in variants {
        let onURLSession = who == "Moya URLSession"
        Benchmark("\(name) · \(who)", configuration: configuration) { benchmark, network in
            benchmark.measurement(requestsMetric, requests)
            try await CallbackChains.run(chains: concurrency, each: requests / concurrency) { done in
                start(network, done)
            }
        } setup: {
            try await Network.start(onURLSession: onURLSession)
        }
    }
}

/// Runs chains of callback-API operations and waits for the last one.
final class CallbackChains: Sendable {
    private struct State {
        var running: Int
        var error: Error?
        var continuation: CheckedContinuation<Void, Error>?
    }

    private let state: NIOLockedValueBox<State>
    private let start: @Sendable (_ done: @escaping @Sendable (Error?) -> Void) -> Void

    private init(chains: Int, start: @escaping @Sendable (_ done: @escaping @Sendable (Error?) -> Void) -> Void) {
        state = NIOLockedValueBox(State(running: chains))
        self.start = start
    }

    /// Runs `chains` chains of `each` operations; throws the first error any of them met.
    static func run(
        chains: Int,
        each: Int,
        start: @escaping @Sendable (_ done: @escaping @Sendable (Error?) -> Void) -> Void
    ) async throws {
        let runner = CallbackChains(chains: chains, start: start)
        try await withCheckedThrowingContinuation { continuation in
            runner.state.withLockedValue { $0.continuation = continuation }
            for _ in 0..<chains {
                runner.next(remaining: each)
            }
        }
    }

    /// Starts the chain's next operation, or ends the chain. Completions run asynchronously
    /// (on a queue), so the chain does not grow the stack.
    private func next(remaining: Int) {
        guard remaining > 0 else {
            finish(nil)
            return
        }
        start { error in
            if let error {
                self.finish(error)
            } else {
                self.next(remaining: remaining - 1)
            }
        }
    }

    private func finish(_ error: Error?) {
        let (continuation, result): (CheckedContinuation<Void, Error>?, Error?) = state.withLockedValue { state in
            state.running -= 1
            if state.error == nil, let error {
                state.error = error
            }
            guard state.running == 0, let continuation = state.continuation else { return (nil, nil) }
            state.continuation = nil
            return (continuation, state.error)
        }
        if let result {
            continuation?.resume(throwing: result)
        } else {
            continuation?.resume()
        }
    }
}

extension Result {
    /// The error of a failure, `nil` for a success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Registers the three variants of a transfer of `Payloads.transferBytes` bytes. The
/// downloaded file is removed after each iteration, outside the measurement.
func transferTrio(
    _ name: String,
    _ configuration: Benchmark.Configuration,
    moya: @escaping @Sendable (Network, TransferFiles) async throws -> Void,
    baseline: @escaping @Sendable (Baseline, TransferFiles) async throws -> Void
) {
    let variants: [(String, @Sendable (Network, TransferFiles) async throws -> Void)] = [
        ("Moya", moya),
        ("AHC raw", { try await baseline($0.baseline(.raw), $1) }),
        ("AHC+Data", { try await baseline($0.baseline(.data), $1) }),
    ]
    for (who, work) in variants {
        Benchmark("\(name) · \(who)", configuration: configuration) { benchmark, fixture in
            benchmark.measurement(requestsMetric, 1)
            try await work(fixture.network, fixture.files)
            benchmark.stopMeasurement()
            try? FileManager.default.removeItem(at: fixture.files.downloadDestination)
        } setup: {
            (network: try await Network.start(), files: try TransferFiles())
        }
    }
}

/// A file of `Payloads.transferBytes` bytes to upload, and a path to download to. The names
/// are fixed so that an interrupted run leaves no more than two files behind, which `run.sh`
/// removes.
struct TransferFiles: Sendable {
    let uploadFile: URL
    let downloadDestination: URL

    init() throws {
        let directory = FileManager.default.temporaryDirectory
        uploadFile = directory.appendingPathComponent("moya-benchmark-upload")
        downloadDestination = directory.appendingPathComponent("moya-benchmark-download")
        // A sparse file: its zeros cost no disk and are read from memory, so the benchmark
        // measures the client rather than the disk.
        guard FileManager.default.createFile(atPath: uploadFile.path, contents: nil) else {
            throw BenchmarkFailure("Cannot create \(uploadFile.path)")
        }
        let handle = try FileHandle(forWritingTo: uploadFile)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(Payloads.transferBytes))
    }
}
