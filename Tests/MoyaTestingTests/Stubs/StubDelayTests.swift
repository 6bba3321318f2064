import Foundation
import Moya
import MoyaTesting
import Testing

@Suite("Stub delays, fixed or in a range")
struct StubDelayTests {
    @Test func aDelayInARangeStaysInTheRange() {
        for _ in 0..<200 {
            guard case .delayed(let seconds) = StubBehavior.delayed(in: 0.25...0.75) else {
                Issue.record("expected .delayed")
                return
            }
            #expect((0.25...0.75).contains(seconds))
        }
    }

    @Test func unusableBoundsGiveAUsableDelay() {
        #expect(StubBehavior.delayed(in: -5 ... -1) == .delayed(seconds: 0))
        #expect(StubBehavior.delayed(in: 2...2) == .delayed(seconds: 2))
        #expect(StubBehavior.delayed(in: 1...Double.infinity) == .delayed(seconds: 1))
        #expect(StubBehavior.delayed(in: -Double.infinity...0) == .delayed(seconds: 0))
    }

    @Test func aDelayedStubAnswersAfterAnImmediateOneSentAtTheSameTime() async throws {
        let order = Order()
        let slow = MoyaProvider<Greeting>.stubbed(
            { .networkResponse(200, Data("slow".utf8)) },
            stub: MoyaProvider.delayedStub(in: 0.4...0.6)
        )
        let fast = MoyaProvider<Greeting>.stubbed({ .networkResponse(200, Data("fast".utf8)) })

        let started = ContinuousClock.now
        async let slowDone: Void = {
            _ = try await slow.request(.hello)
            await order.append("slow")
        }()
        _ = try await fast.request(.hello)
        await order.append("fast")
        try await slowDone

        #expect(await order.names == ["fast", "slow"])
        #expect(
            ContinuousClock.now - started >= .milliseconds(350),
            "a stub delayed 0.4 s or more does not answer sooner"
        )
    }
}

/// The order in which requests finished.
actor Order {
    private(set) var names: [String] = []

    func append(_ name: String) {
        names.append(name)
    }
}
