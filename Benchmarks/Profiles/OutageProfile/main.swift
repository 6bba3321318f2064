// The outage benchmark of the resilience policies: callers against an upstream that answers
// `503` for a while and then recovers, each request with `RetryPolicy(retryLimit: 3)`.
//
//   swift build -c release --product OutageProfile
//   .build/release/OutageProfile [none|budget|breaker|all] [callers, 32] [outage seconds, 10]
//
// It counts what reaches the server per request made while the upstream is down (no policy:
// about 4, the first attempt and three retries), how long a request refused by the open
// breaker takes (nothing is sent), and how long after the upstream recovers every caller has
// had a success. The server runs in the same process, on 127.0.0.1.
import Foundation
import Hummingbird
import Logging
import Moya
import NIOConcurrencyHelpers

struct Upstream: TargetType {
    let baseURL: URL
    var path: String { "/upstream" }
    var method: Moya.Method { .get }
    var task: Moya.Task { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .none }
}

/// What the callers and the server saw, under one lock.
struct Tally {
    var madeDuringOutage = 0
    var hitsDuringOutage = 0
    var refused = 0
    var refusedNanoseconds: UInt64 = 0
    var recoveredCallers: [Double] = []
}

let arguments = CommandLine.arguments
let mode = arguments.count > 1 ? arguments[1] : "none"
let callers = arguments.count > 2 ? Int(arguments[2]) ?? 32 : 32
let outageSeconds = arguments.count > 3 ? Double(arguments[3]) ?? 10 : 10

let tally = NIOLockedValueBox(Tally())
let started = Date()
let recoversAt = started.addingTimeInterval(outageSeconds)
func isDown() -> Bool { Date() < recoversAt }

let router = Router()
router.get("upstream") { _, _ -> Response in
    let down = isDown()
    if down {
        tally.withLockedValue { $0.hitsDuringOutage += 1 }
    }
    return Response(status: down ? .serviceUnavailable : .ok)
}
let (ports, portContinuation) = AsyncStream<Int>.makeStream()
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: 0)),
    onServerRunning: { channel in
        portContinuation.yield(channel.localAddress?.port ?? 0)
        portContinuation.finish()
    },
    logger: Logger(label: "upstream", factory: { _ in SwiftLogNoOpLogHandler() })
)
let server = _Concurrency.Task.detached { try await app.runService() }

func run() async throws {
    var port = 0
    for await value in ports { port = value }
    let target = Upstream(baseURL: URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/"))

    var configuration = Session.Configuration(cookieStorage: nil)
    if mode == "budget" || mode == "all" {
        configuration.resilience.retryBudget = RetryBudget()
    }
    if mode == "breaker" || mode == "all" {
        configuration.resilience.circuitBreaker = CircuitBreaker(openDuration: 1)
    }
    let provider = MoyaProvider<Upstream>(
        session: Session(configuration: configuration),
        interceptor: RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.05)
    )

    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<callers {
            group.addTask {
                while true {
                    let wasDown = isDown()
                    let sent = DispatchTime.now().uptimeNanoseconds
                    let result: Result<Moya.Response, MoyaError>
                    do throws(MoyaError) {
                        result = .success(try await provider.request(target))
                    } catch {
                        result = .failure(error)
                    }
                    let took = DispatchTime.now().uptimeNanoseconds - sent
                    if wasDown {
                        tally.withLockedValue { $0.madeDuringOutage += 1 }
                    }
                    if case .failure(let error) = result, error.clientError?.code == .circuitOpen {
                        tally.withLockedValue {
                            $0.refused += 1
                            $0.refusedNanoseconds += took
                        }
                        // A caller that was refused at once does not spin: it comes back soon.
                        try? await _Concurrency.Task.sleep(for: .milliseconds(10))
                    }
                    if case .success(let response) = result, response.statusCode == 200 {
                        let after = Date().timeIntervalSince(recoversAt)
                        tally.withLockedValue { $0.recoveredCallers.append(after) }
                        return
                    }
                }
            }
        }
    }

    let result = tally.withLockedValue { $0 }
    let perRequest = Double(result.hitsDuringOutage) / Double(max(1, result.madeDuringOutage))
    let refusedMicroseconds = Double(result.refusedNanoseconds) / Double(max(1, result.refused)) / 1000
    let recovered = result.recoveredCallers.sorted()
    print("mode \(mode), \(callers) callers, \(outageSeconds) s outage, RetryPolicy(retryLimit: 3)")
    print("  during the outage: \(result.madeDuringOutage) requests made,", terminator: "")
    print(" \(result.hitsDuringOutage) reached the server")
    print("  server requests per request made: \(String(format: "%.2f", perRequest))")
    if result.refused > 0 {
        let each = String(format: "%.1f", refusedMicroseconds)
        print("  refused by the open breaker: \(result.refused), \(each) µs each on average")
    }
    if let last = recovered.last, let median = recovered.dropFirst(recovered.count / 2).first {
        let (medianText, lastText) = (String(format: "%.2f", median), String(format: "%.2f", last))
        print("  after recovery, callers' first success: median \(medianText) s, last \(lastText) s")
    }
}

// Blocks the main thread until the run ends, so that the process exits from `main` itself; the
// tasks are detached, since a task made by top-level code would run on the blocked main actor.
let done = DispatchSemaphore(value: 0)
_Concurrency.Task.detached {
    do {
        try await run()
    } catch {
        print("failed: \(error)")
    }
    server.cancel()
    done.signal()
}
done.wait()
