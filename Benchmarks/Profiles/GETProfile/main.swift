// The GET benchmark's work, one request at a time, through Moya or AsyncHTTPClient alone, for
// perf and for counting allocations (run twice with different counts: the difference is per
// request).
//
//   swift build -c release --product GETProfile
//   perf record -g .build/release/GETProfile moya http://127.0.0.1:PORT/json 20000 [CONCURRENCY]
//
// `moya-304` sends the same GET through a session whose memory cache revalidates every request
// (the cache benchmark's `304` revalidation): the URL must answer with an ETag, as nginx's static
// files do. `moya-hit` sends it through a session whose memory cache keeps what the URL answers
// (the cache benchmark's fresh hit): the URL must answer with a lifetime, as the benchmark's
// nginx does for `/cached`; the first request fills the cache. `moya-stub` answers the same
// target with an immediate stub, the cost a fresh hit is compared with. `moya-post` and `ahc-post` send the POST benchmark's 64 KB body, or as many bytes as
// `MOYA_PROFILE_POST_BYTES` says.
//
// The other modes tell the cost of AsyncHTTPClient's ways of being called from callbacks apart
// from Moya's own (`Benchmarks/README.md`, "The bounds"): `ahc-future` is its delegate API with
// its own `ResponseAccumulator`; `ahc-task` runs each request on its async API in a task of its
// own, resumed through a continuation, as a callback-driven transport would have to;
// `ahc-el-task` runs that task on an event loop (a `TaskExecutor` over `EventLoop.execute`)
// instead of Swift's cooperative pool. Each has a `-post` form that sends the 64 KB body.
// `ahc-child` awaits the async API in a child task (`async let`), `ahc-unstructured` in a task of
// its own awaited through its `value`: the ways a transfer on the async API could be stopped
// from outside the task that awaits it (cancelling that task).
// `moya-callback` and `ahc-callback` chain requests through callbacks on a serial queue, as the
// benchmark's callback rows do. `ahc-headers` and `ahc-callback-headers` are `ahc` and
// `ahc-callback` sending the session's default headers, as Moya does: the fair baselines of
// `Benchmarks/instructions.sh`. `moya-plugin` and `moya-callback-plugin` add one plugin that does
// nothing, for what a plugin costs. `moya-policies` sets every resilience policy, none of which
// trips: what they cost a request that passes them.
//
// The main thread waits on a semaphore instead of an async `main`: valgrind 3.19 crashes when an
// async `main` returns, and its counts are lost. `floor` is the least any pipeline on Moya's types could cost: the
// endpoint and its `URLRequest` made, AsyncHTTPClient's async API awaited in the caller's own
// task, a `Response` made, and nothing else (no plugin, lifecycle, idle timeout or cancel from
// outside the task); `floor-no-urlrequest` skips the `URLRequest`, which Moya's API does not allow.
import AsyncHTTPClient
import Foundation
import Moya
import NIOCore
import NIOFoundationCompat

struct JSONAPI: TargetType {
    let baseURL: URL
    /// A body to `POST`; `nil` for a `GET`.
    var body: Data? = nil
    var path: String { "" }
    var method: Moya.Method { body == nil ? .get : .post }
    var task: Moya.Task { body.map { .requestData($0) } ?? .requestPlain }
    var headers: [String: String]? { body == nil ? nil : ["Content-Type": "application/json"] }
}

/// The POST benchmark's body: 64 KB, or `MOYA_PROFILE_POST_BYTES` bytes.
let postBody = Data(
    repeating: UInt8(ascii: "7"),
    count: ProcessInfo.processInfo.environment["MOYA_PROFILE_POST_BYTES"].flatMap { Int($0) } ?? 64 << 10
)

let arguments = Array(CommandLine.arguments.dropFirst())
guard (3...4).contains(arguments.count), let url = URL(string: arguments[1]), let count = Int(arguments[2]),
    let concurrency = Int(arguments.count == 4 ? arguments[3] : "1"), concurrency > 0
else {
    print("usage: GETProfile MODE URL COUNT [CONCURRENCY] (modes: see the comment at the top)")
    exit(2)
}
let mode = arguments[0]
/// `MOYA_PROFILE_READ_TIMEOUT=SECONDS` sends every mode through a client with AsyncHTTPClient's own
/// read timeout (its idle timer, reset on every read), for what an idle timeout costs on its API.
let readTimeout = ProcessInfo.processInfo.environment["MOYA_PROFILE_READ_TIMEOUT"].flatMap { Int64($0) }
let session =
    if mode == "moya-304" {
        Session(configuration: .init(cache: .memory(maxBytes: 1 << 20, policy: .alwaysRevalidate)))
    } else if mode == "moya-hit" {
        Session(configuration: .init(cache: .memory(maxBytes: 1 << 20, policy: .useProtocol)))
    } else if mode == "moya-policies" {
        Session(configuration: policiesConfiguration())
    } else if let readTimeout {
        Session(
            httpClient: HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(timeout: .init(read: .seconds(readTimeout)))
            )
        )
    } else {
        Session()
    }
/// Every resilience policy set, none of which trips on the benchmark's GETs: what they cost a
/// request that passes (`moya-policies`). Coalescing is set for `HEAD` only: merging the
/// identical GETs in flight would change the work, not measure the check.
func policiesConfiguration() -> Session.Configuration {
    var configuration = Session.Configuration()
    configuration.resilience = ResiliencePolicies(
        retryBudget: RetryBudget(),
        circuitBreaker: CircuitBreaker(),
        concurrencyLimit: ConcurrencyLimit(maximumConcurrentRequests: 1_000),
        rateLimit: RateLimit(requestsPerSecond: 1_000_000, burst: 1_000_000),
        coalescing: RequestCoalescing(methods: [.head])
    )
    return configuration
}

/// The headers Moya's default session adds to every request, sent by the `-headers` baselines.
/// Set before the loops start: a global of this file is set when the main thread reaches it.
let defaultHeaders = Session.Configuration.defaultHeaders
/// A plugin that does nothing: what a provider pays for having one.
struct NoOpPlugin: PluginType {}

let provider =
    if mode == "moya-stub" {
        MoyaProvider<JSONAPI>(stubClosure: MoyaProvider.immediatelyStub, session: session)
    } else if mode.hasSuffix("-plugin") {
        MoyaProvider<JSONAPI>(session: session, plugins: [NoOpPlugin()])
    } else {
        MoyaProvider<JSONAPI>(session: session)
    }

/// What the loops found, handed from the task that runs them to the main thread.
final class Outcome: @unchecked Sendable {
    // `@unchecked Sendable`: written once by the task before it signals `done`, read by the main
    // thread only after `done` was signalled; the semaphore orders the two.
    var bytes: Result<Int, any Error> = .success(0)
    let done = DispatchSemaphore(value: 0)
}
let outcome = Outcome()
// Off the main actor, as the benchmark runs; the globals of this file belong to the main actor,
// so the loop captures them first.
_Concurrency.Task.detached { [mode, url, count, concurrency, provider, session, outcome] in
    do {
        outcome.bytes = .success(
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<concurrency {
                    group.addTask { try await run(mode, url, count / concurrency, provider, session) }
                }
                return try await group.reduce(0, +)
            }
        )
    } catch {
        outcome.bytes = .failure(error)
    }
    outcome.done.signal()
}
outcome.done.wait()
switch outcome.bytes {
case .success(let bytes):
    print("\(count) GETs (\(mode), \(concurrency) at a time), \(bytes) bytes")
case .failure(let error):
    print("\(mode) failed: \(error)")
    exit(1)
}

/// One loop of requests, one after the other.
@Sendable func run(
    _ mode: String,
    _ url: URL,
    _ count: Int,
    _ provider: MoyaProvider<JSONAPI>,
    _ session: Session
)
    async throws -> Int
{
    if mode.hasPrefix("moya-callback") || mode.hasPrefix("ahc-callback") {
        return await withCheckedContinuation { continuation in
            callbackChain(mode, url, count, provider, session, queue: DispatchQueue(label: "callbacks"), bytes: 0) {
                continuation.resume(returning: $0)
            }
        }
    }
    var bytes = 0
    for _ in 0..<count {
        if mode == "moya" || mode == "moya-304" || mode == "moya-hit" || mode == "moya-stub" || mode == "moya-plugin"
            || mode == "moya-policies"
        {
            bytes += try await provider.request(JSONAPI(baseURL: url)).data.count
        } else if mode == "moya-post" {
            bytes += try await provider.request(JSONAPI(baseURL: url, body: postBody)).data.count
        } else if mode == "floor" || mode == "floor-no-urlrequest" {
            let target = JSONAPI(baseURL: url)
            bytes += try await leastPipeline(target, session, urlRequest: mode == "floor").data.count
        } else if mode == "ahc-child" {
            async let count = asyncTransfer(asyncRequest(url, post: false), session)
            bytes += try await count
        } else if mode == "ahc-unstructured" {
            let request = asyncRequest(url, post: false)
            bytes += try await _Concurrency.Task { try await asyncTransfer(request, session) }.value
        } else if mode == "ahc-post" {
            bytes += try await asyncTransfer(asyncRequest(url, post: true), session)
        } else if mode == "ahc-future" || mode == "ahc-future-post" {
            let request = try futureRequest(url, post: mode.hasSuffix("-post"))
            let response = try await session.httpClient.execute(request: request).get()
            bytes += response.body.map { Data(buffer: $0) }?.count ?? 0
        } else if mode.hasPrefix("ahc-task") || mode.hasPrefix("ahc-el-task") {
            let request = asyncRequest(url, post: mode.hasSuffix("-post"))
            let onLoop = mode.hasPrefix("ahc-el-task")
            let loop = session.httpClient.eventLoopGroup.next()
            bytes += await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                let transfer: @Sendable () async -> Void = {
                    continuation.resume(returning: (try? await asyncTransfer(request, session)) ?? 0)
                }
                if onLoop, #available(macOS 15, *) {
                    _Concurrency.Task(executorPreference: LoopExecutor(loop)) { await transfer() }
                } else if onLoop {
                    print("ahc-el-task needs task executors (macOS 15 or later)")
                    continuation.resume(returning: 0)
                } else {
                    _Concurrency.Task { await transfer() }
                }
            }
        } else {
            let headers = mode == "ahc-headers" ? defaultHeaders : [:]
            bytes += try await asyncTransfer(asyncRequest(url, post: false, headers: headers), session)
        }
    }
    return bytes
}

/// One request on AsyncHTTPClient's async API, its body made `Data` as in the benchmark's
/// AHC+Data: the number of bytes received.
@Sendable func asyncTransfer(_ request: HTTPClientRequest, _ session: Session) async throws -> Int {
    let response = try await session.httpClient.execute(request, timeout: .seconds(30))
    return Data(buffer: try await response.body.collect(upTo: 1 << 20)).count
}

/// Requests one after the other, each started from the previous one's completion on `queue`,
/// as the benchmark's callback rows do: through Moya's callback API, or AsyncHTTPClient's
/// `execute(request:)` with its result handled on `queue`.
@Sendable func callbackChain(
    _ mode: String,
    _ url: URL,
    _ remaining: Int,
    _ provider: MoyaProvider<JSONAPI>,
    _ session: Session,
    queue: DispatchQueue,
    bytes: Int,
    done: @escaping @Sendable (Int) -> Void
) {
    guard remaining > 0 else { return done(bytes) }
    let next: @Sendable (Int) -> Void = { count in
        callbackChain(mode, url, remaining - 1, provider, session, queue: queue, bytes: bytes + count, done: done)
    }
    if mode.hasPrefix("moya-callback") {
        provider.request(JSONAPI(baseURL: url), callbackQueue: queue) { result in
            next((try? result.get().data.count) ?? 0)
        }
    } else {
        let request: HTTPClient.Request
        do {
            let headers = mode == "ahc-callback-headers" ? defaultHeaders : [:]
            request = try futureRequest(url, post: false, headers: headers)
        } catch {
            return done(bytes)
        }
        session.httpClient.execute(request: request).whenComplete { result in
            queue.async { next((try? result.get().body.map { Data(buffer: $0) })??.count ?? 0) }
        }
    }
}

/// The request for AsyncHTTPClient's delegate API: the benchmark's GET, or its 64 KB `POST`.
@Sendable func futureRequest(_ url: URL, post: Bool, headers: [String: String] = [:]) throws -> HTTPClient.Request {
    guard post else {
        var request = try HTTPClient.Request(url: url)
        for (name, value) in headers {
            request.headers.add(name: name, value: value)
        }
        return request
    }
    var request = try HTTPClient.Request(url: url, method: .POST, body: .bytes(postBody))
    request.headers.add(name: "Content-Type", value: "application/json")
    return request
}

/// The request for AsyncHTTPClient's async API: the benchmark's GET, or its 64 KB `POST`.
@Sendable func asyncRequest(_ url: URL, post: Bool, headers: [String: String] = [:]) -> HTTPClientRequest {
    var request = HTTPClientRequest(url: url.absoluteString)
    for (name, value) in headers {
        request.headers.add(name: name, value: value)
    }
    if post {
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: postBody))
    }
    return request
}

/// Runs a task's jobs on one event loop, one `execute` each, rather than on Swift's cooperative
/// pool.
@available(macOS 15, *)
final class LoopExecutor: TaskExecutor {
    let loop: EventLoop

    init(_ loop: EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }
}

/// The least a pipeline that awaits the transfer in the caller's own task could cost with Moya's
/// types (`floor`): the endpoint, its `URLRequest`, the conversion, AsyncHTTPClient's async API, a
/// `Response`. `floor-no-urlrequest` goes from the endpoint straight to AsyncHTTPClient's request,
/// which Moya's API (`requestClosure`, plugins) does not allow: what `URLRequest` costs.
@Sendable func leastPipeline(
    _ target: JSONAPI,
    _ session: Session,
    urlRequest makesURLRequest: Bool
)
    async throws -> Moya.Response
{
    let endpoint = MoyaProvider<JSONAPI>.defaultEndpointMapping(for: target)
    let urlRequest = makesURLRequest ? try endpoint.urlRequest() : nil
    var request = HTTPClientRequest(url: urlRequest?.url?.absoluteString ?? endpoint.url)
    request.method = .init(rawValue: urlRequest?.httpMethod ?? endpoint.method.rawValue)
    let headers = urlRequest.map { $0.allHTTPHeaderFields } ?? endpoint.httpHeaderFields
    for (name, value) in headers ?? [:] {
        request.headers.add(name: name, value: value)
    }
    let response = try await session.httpClient.execute(request, timeout: .seconds(60))
    let body = try await response.body.collect(upTo: 1 << 30)
    let data = Data(buffer: body, byteTransferStrategy: .noCopy)
    return Moya.Response(statusCode: Int(response.status.code), data: data, request: urlRequest)
}
