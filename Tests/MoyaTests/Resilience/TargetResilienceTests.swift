import Foundation
import Hummingbird
import LoopbackServer
import NIOConcurrencyHelpers
import Testing

@testable import Moya

/// A target's own resilience policies (`RequestPolicies.resilience`): which gate its requests
/// pass, and what reaches the server.
@Suite("Resilience policies of a target")
struct TargetResilienceTests {
    /// A target whose policies are made anew on every read, as a computed property makes them.
    struct Guarded: TargetType, RequestPolicies {
        var baseURL: URL
        var path: String
        var policies: @Sendable () -> ResiliencePolicies?
        var method: Moya.Method { .get }
        var task: Moya.Task { .requestPlain }
        var headers: [String: String]? { nil }
        var resilience: ResiliencePolicies? { policies() }
    }

    struct Other: TargetType {
        var baseURL: URL { URL(fileURLWithPath: "/") }
        var path: String { "" }
        var method: Moya.Method { .get }
        var task: Moya.Task { .requestPlain }
        var headers: [String: String]? { nil }
    }

    final class StateLog: CircuitStateObserver {
        let states = NIOLockedValueBox<[CircuitBreaker.State]>([])
        func circuitChanged(key: String, to state: CircuitBreaker.State) {
            states.withLockedValue { $0.append(state) }
        }
    }

    private static func breaker(opensAfter calls: Int) -> ResiliencePolicies {
        ResiliencePolicies(
            circuitBreaker: CircuitBreaker(windowSize: calls, minimumCalls: calls, openDuration: 30, halfOpenTrials: 1)
        )
    }

    /// The code of the `MoyaClientError` a request was refused with; `nil` when it was not.
    private static func refusal(_ provider: MoyaProvider<Guarded>, _ target: Guarded) async -> MoyaClientError.Code? {
        do throws(MoyaError) {
            _ = try await provider.request(target)
            return nil
        } catch {
            return error.clientError?.code
        }
    }

    @Test func policiesWithTheSameNumbersShareOneGateAndOthersGetTheirOwn() {
        let gates = TargetGates(logger: nil)
        let first = gates.gate(for: Self.breaker(opensAfter: 4), of: Guarded.self)
        let again = gates.gate(for: Self.breaker(opensAfter: 4), of: Guarded.self)
        let otherNumbers = gates.gate(for: Self.breaker(opensAfter: 5), of: Guarded.self)
        let otherTarget = gates.gate(for: Self.breaker(opensAfter: 4), of: Other.self)
        #expect(first != nil)
        #expect(first === again)
        #expect(otherNumbers !== first)
        #expect(otherTarget !== first)
        #expect(gates.gate(for: ResiliencePolicies(), of: Guarded.self) == nil, "an empty set passes no gate")
        #expect(gates.count == 3)
    }

    @Test func pastItsCapacityTheGateUsedLeastRecentlyIsDropped() {
        let gates = TargetGates(logger: nil, capacity: 2)
        let two = gates.gate(for: Self.breaker(opensAfter: 2), of: Guarded.self)
        let three = gates.gate(for: Self.breaker(opensAfter: 3), of: Guarded.self)
        _ = gates.gate(for: Self.breaker(opensAfter: 2), of: Guarded.self)
        _ = gates.gate(for: Self.breaker(opensAfter: 4), of: Guarded.self)
        #expect(gates.count == 2)
        #expect(gates.gate(for: Self.breaker(opensAfter: 2), of: Guarded.self) === two)
        #expect(gates.gate(for: Self.breaker(opensAfter: 3), of: Guarded.self) !== three, "made anew")
    }

    @Test func anObserverHearsTheBreakersOfGatesMadeBeforeAndAfterIt() {
        let gates = TargetGates(logger: nil)
        let before = gates.gate(for: Self.breaker(opensAfter: 1), of: Guarded.self)
        let log = StateLog()
        gates.addObserver(log)
        let after = gates.gate(for: Self.breaker(opensAfter: 1), of: Other.self)
        let request = URLRequest(url: URL(fileURLWithPath: "/"))
        for gate in [before, after].compactMap({ $0 }) {
            guard case .admitted(let permit?) = gate.start(request, attempt: 1) else {
                Issue.record("the closed breaker admits the attempt")
                continue
            }
            gate.release(permit, result: .failure(.underlying(URLError(.cannotConnectToHost), nil)))
        }
        #expect(log.states.withLockedValue { $0 } == [.open, .open])
    }

    @Test func aTargetsOwnBreakerIsSharedByProvidersAndLeavesOtherTargetsAlone() async throws {
        try await withFailingUpstream { server, hits in
            let session = Session(configuration: .init(cookieStorage: nil))
            let first = MoyaProvider<Guarded>(session: session)
            let second = MoyaProvider<Guarded>(session: session)
            let guarded = Guarded(baseURL: server.baseURL, path: "/down", policies: { Self.breaker(opensAfter: 2) })
            let unguarded = Guarded(baseURL: server.baseURL, path: "/down", policies: { nil })
            let status1 = try await first.request(guarded).statusCode
            let status2 = try await second.request(guarded).statusCode
            #expect(status1 == 503)
            #expect(status2 == 503)
            let refusal = await Self.refusal(second, guarded)
            #expect(refusal == .circuitOpen, "the target's breaker, opened through both providers, refuses")
            #expect(hits.count == 2, "a refused request sends nothing")
            let other = try await first.request(unguarded).statusCode
            #expect(other == 503, "a target without policies of its own passes the session's: none")
            #expect(hits.count == 3)
        }
    }

    @Test func aTargetsEmptyPoliciesExemptItFromTheSessionsBreaker() async throws {
        try await withFailingUpstream { server, hits in
            var configuration = Session.Configuration(cookieStorage: nil)
            configuration.resilience = Self.breaker(opensAfter: 1)
            let provider = MoyaProvider<Guarded>(session: Session(configuration: configuration))
            let sessions = Guarded(baseURL: server.baseURL, path: "/down", policies: { nil })
            let exempt = Guarded(baseURL: server.baseURL, path: "/down", policies: { ResiliencePolicies() })
            _ = try await provider.request(sessions)
            let refusal = await Self.refusal(provider, sessions)
            #expect(refusal == .circuitOpen, "the session's breaker, opened by one failure, refuses")
            let status = try await provider.request(exempt).statusCode
            #expect(status == 503)
            #expect(hits.count == 2, "the exempt target's request was sent")
        }
    }
}
