import Benchmark
import Dispatch
import Moya

/// The latency of each request, in nanoseconds, from the call to the whole body in hand.
///
/// package-benchmark's wall clock is one figure per iteration (a batch of requests), so its
/// percentiles say nothing of a single request's wait. Every request's duration is kept
/// instead, and handed to this metric after the iteration's measurement has stopped: its
/// percentiles are then over every request of every measured iteration (warm-up iterations
/// are not recorded).
let latencyMetric = BenchmarkMetric.custom("latency", polarity: .prefersSmaller, useScalingFactor: false)

/// The concurrency curve: `GET /json` on the async API with 1, 32, 256 and 1,024 requests in
/// flight, for Moya, raw AsyncHTTPClient, URLSession and the generated OpenAPI client on both
/// transports.
///
/// Every client gets a pool that allows all its requests on connections of their own (32
/// connections per host, or the level when it is higher): the session's `HTTPClient`, shared
/// by Moya, the baseline and the OpenAPI AHC transport, and the URLSession peer's
/// `httpMaximumConnectionsPerHost`. So the curve shows each client's cost as it multiplies its
/// connections, not a queue in front of a small pool.
func concurrencyCurve(_ configuration: Benchmark.Configuration) {
    var configuration = configuration
    configuration.metrics.append(latencyMetric)
    // Batches of a few hundred milliseconds at the clients' rates, with enough requests per
    // task at 1,024 in flight (16) that the batch is not mostly its ramp-up and ramp-down.
    let levels = [(inFlight: 1, requests: 2048), (32, 8192), (256, 8192), (1024, 16384)]
    let contenders: [Contender] = [.moya, .ahcRaw, .urlSession, .openAPIAHC, .openAPIMoya]
    for (inFlight, requests) in levels {
        for contender in contenders {
            let work = contender.work(
                moya: { try await $0.moyaGET() },
                baseline: { try await $0.getJSON() },
                peer: { try await $0.getJSON() }
            )
            let name = "GET 1 KB JSON curve, \(inFlight) in flight · \(contender.rawValue)"
            Benchmark(name, configuration: configuration) { benchmark, network in
                benchmark.measurement(requestsMetric, requests)
                let latencies = try await timedBatch(requests: requests, inFlight: inFlight) {
                    try await work(network)
                }
                benchmark.stopMeasurement()
                for latency in latencies {
                    benchmark.measurement(latencyMetric, Int(latency))
                }
            } setup: {
                try await Network.start(
                    contender,
                    connectionsPerHost: max(inFlight, Session.Configuration.defaultConnectionsPerHost)
                )
            }
        }
    }
}

/// Runs `requests` operations as `inFlight` tasks, each doing its share one after another, and
/// returns every operation's duration in nanoseconds.
///
/// Each task keeps its own durations, in an array reserved up front, so that recording takes
/// two clock reads and no lock per request; the arrays are joined once the batch is done.
func timedBatch(
    requests: Int,
    inFlight: Int,
    _ operation: @escaping @Sendable () async throws -> Void
) async throws -> [UInt64] {
    try await withThrowingTaskGroup(of: [UInt64].self) { group in
        for _ in 0..<inFlight {
            group.addTask {
                let count = requests / inFlight
                var durations: [UInt64] = []
                durations.reserveCapacity(count)
                for _ in 0..<count {
                    let start = DispatchTime.now().uptimeNanoseconds
                    try await operation()
                    durations.append(DispatchTime.now().uptimeNanoseconds - start)
                }
                return durations
            }
        }
        var all: [UInt64] = []
        all.reserveCapacity(requests)
        for try await durations in group {
            all += durations
        }
        return all
    }
}
