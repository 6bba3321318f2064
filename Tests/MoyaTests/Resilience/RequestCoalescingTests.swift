import Foundation
import Hummingbird
import LoopbackServer
import NIOConcurrencyHelpers
import Testing

@testable import Moya

/// Identical requests in flight share one network request; each caller is answered on its own.
@Suite("Request coalescing")
struct RequestCoalescingTests {
    private let target = DynamicTarget(baseURL: URL(fileURLWithPath: "/"), path: "/x")

    private func key(
        _ method: Moya.Method = .get,
        headers: [String: String] = [:],
        body: Data? = nil
    ) -> RequestCoalescing.Key? {
        var request = URLRequest(url: URL(string: "http://example.com/x") ?? URL(fileURLWithPath: "/"))
        request.httpMethod = method.rawValue
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = body
        let endpoint = Endpoint(
            url: "http://example.com/x",
            sampleResponseClosure: { .networkResponse(200, Data()) },
            method: method,
            task: .requestPlain,
            httpHeaderFields: nil
        )
        return RequestCoalescing.Key(TransportExchange(request: request, endpoint: endpoint), methods: [.get, .head])
    }

    @Test func onlyBodilessRequestsOfTheMergedMethodsAreMergedAndHeadersTellThemApart() {
        #expect(key() != nil)
        #expect(key(.post) == nil)
        #expect(key(body: Data("x".utf8)) == nil)
        #expect(key(headers: ["Cookie": "a=1"]) != key(headers: ["Cookie": "a=2"]))
        #expect(key(headers: ["Accept": "x", "B": "y"]) == key(headers: ["b": "y", "accept": "x"]))
    }

    @Test func theFirstCallerLeadsOthersFollowAndTheLastToLeaveEndsTheFlight() throws {
        var table = RequestCoalescing.Table<String>()
        let flightKey = try #require(key())
        guard case .lead(let flight, let first) = table.join(flightKey, "a"),
            case .follow(flight, let second) = table.join(flightKey, "b")
        else {
            Issue.record("the first caller leads and the second follows the same flight")
            return
        }
        let follower = table.leave(flightKey, flight: flight, caller: second)
        #expect(follower.caller == "b" && !follower.wasLast)
        let leader = table.leave(flightKey, flight: flight, caller: first)
        #expect(leader.caller == "a" && leader.wasLast)
        #expect(table.count == 0)
        // The flight has left: its late response goes to nobody, and a new caller leads anew.
        let late = table.land(flightKey, flight: flight)
        #expect(late.isEmpty)
        if case .follow = table.join(flightKey, "c") {
            Issue.record("a caller after the last left must lead a new flight")
        }
    }

    @Test func aLateResponseOfAnAbandonedFlightLeavesTheNewerFlightOfTheSameRequestInPlace() throws {
        var table = RequestCoalescing.Table<String>()
        let flightKey = try #require(key())
        guard case .lead(let old, let first) = table.join(flightKey, "a") else {
            Issue.record("the first caller leads")
            return
        }
        _ = table.leave(flightKey, flight: old, caller: first)
        guard case .lead(let new, _) = table.join(flightKey, "b") else {
            Issue.record("a caller after the last left leads a new flight")
            return
        }
        let late = table.land(flightKey, flight: old)
        #expect(late.isEmpty)
        #expect(table.count == 1)
        let answered = table.land(flightKey, flight: new)
        #expect(answered == ["b"])
        #expect(table.count == 0)
    }

    private func session() -> (Session, CoalescingTransport?) {
        var configuration = Session.Configuration(cookieStorage: nil)
        configuration.resilience.coalescing = RequestCoalescing()
        let session = Session(configuration: configuration)
        return (session, session.streamTransport as? CoalescingTransport)
    }

    @Test(.timeLimit(.minutes(1)))
    func aHundredIdenticalGetsMakeOneServerRequestAndCancelling99LeavesTheLastIntact() async throws {
        let hits = Counter()
        let (release, releaseNow) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("shared") { _, _ -> String in
                hits.increment()
                for await _ in release { break }
                return "the answer"
            }
        }) { server in
            let (session, coalescing) = session()
            // Two providers on one session share its flights.
            let providers = [
                MoyaProvider<DynamicTarget>(session: session), MoyaProvider<DynamicTarget>(session: session),
            ]
            let target = DynamicTarget(baseURL: server.baseURL, path: "/shared")
            let tasks = (0..<100).map { index in
                _Concurrency.Task { () -> Result<Moya.Response, MoyaError> in
                    do throws(MoyaError) {
                        return .success(try await providers[index % 2].request(target))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            while hits.count < 1 {
                await _Concurrency.Task.yield()
            }
            for task in tasks.dropLast() {
                task.cancel()
            }
            for task in tasks.dropLast() {
                let result = await task.value
                #expect(result.error?.isCancellation == true)
            }
            releaseNow.finish()
            let last = try await tasks[99].value.get()
            #expect(try last.mapString() == "the answer")
            #expect(hits.count == 1)
            #expect(coalescing?.flightsInProgress == 0)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingEveryCallerCancelsTheNetworkRequestAndTheNextStartsAnew() async throws {
        let hits = Counter()
        let (arrived, arrivedNow) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("slow") { _, _ -> String in
                hits.increment()
                arrivedNow.yield()
                try await _Concurrency.Task.sleep(for: .seconds(hits.count == 1 ? 60 : 0))
                return "fresh"
            }
        }) { server in
            let (session, _) = session()
            let provider = MoyaProvider<DynamicTarget>(session: session)
            let target = DynamicTarget(baseURL: server.baseURL, path: "/slow")
            let tasks = (0..<10).map { _ in
                _Concurrency.Task { () -> MoyaError? in
                    do throws(MoyaError) {
                        _ = try await provider.request(target)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            var iterator = arrived.makeAsyncIterator()
            _ = await iterator.next()
            for task in tasks {
                task.cancel()
            }
            for task in tasks {
                #expect(await task.value?.isCancellation == true)
            }
            // The flight left with its last caller: an identical request is sent again.
            let again = try await provider.request(target)
            #expect(try again.mapString() == "fresh")
            #expect(hits.count == 2)
        }
    }
}

extension Result {
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
