import Benchmark
import Foundation
import Moya
import NIOCore
import NIOFoundationCompat

// Naming: every benchmark is "<work> · <who>", where <who> is "Moya" (on the platform's default
// transport, AsyncHTTPClient on Linux), "Moya URLSession" (on `URLSessionTransport`), "AHC raw",
// "AHC+Data", a peer ("URLSession", "OpenAPI AHC", "OpenAPI Moya": see `Contender`), or the
// baseline of an in-memory benchmark; `compare.py` pairs them by <work>. Each iteration does a
// batch of operations and reports its size in the "requests" custom metric, so that the
// per-iteration figures can be turned into per-request ones. Batches are sized for iterations of
// a few hundred milliseconds against nginx on loopback: CPU time is counted in 10 ms scheduler
// ticks.

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
    // async API (`HTTPClientRequest`), and the peers' async APIs.
    for (concurrency, requests) in [(1, 4096), (32, 8192)] {
        networkTrio("GET 1 KB JSON × \(concurrency), async API", quick, requests: requests, concurrency: concurrency,
                    moya: { network in try await network.moyaGET() },
                    baseline: { baseline in try await baseline.getJSON() },
                    peer: { peer in try await peer.getJSON() })
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
                baseline: { baseline in try await baseline.postJSON(json64KB, json64KBBuffer) },
                peer: { peer in try await peer.postJSON() })

    concurrencyCurve(quick)

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

    stubWorkloadBenchmarks(quick)
    openAPIAloneBenchmarks(quick)

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
