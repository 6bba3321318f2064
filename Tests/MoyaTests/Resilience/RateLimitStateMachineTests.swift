import Foundation
import Testing

@testable import Moya

/// The token bucket and the server's hints alone.
@Suite("Rate limit: state machine and server hints")
struct RateLimitStateMachineTests {
    @Test func aBurstGoesAtOnceThenRequestsAreSpacedAtTheRate() {
        var bucket = RateLimit.StateMachine(settings: RateLimit(requestsPerSecond: 2, burst: 3))
        #expect(bucket.reserve(now: 10) == .go(afterSeconds: 0))
        #expect(bucket.reserve(now: 10) == .go(afterSeconds: 0))
        #expect(bucket.reserve(now: 10) == .go(afterSeconds: 0))
        #expect(bucket.reserve(now: 10) == .go(afterSeconds: 0.5))
        #expect(bucket.reserve(now: 10) == .go(afterSeconds: 1))
    }

    @Test func aQuietPeriodRefillsTheBucket() {
        var bucket = RateLimit.StateMachine(settings: RateLimit(requestsPerSecond: 1, burst: 2))
        for _ in 0..<4 {
            _ = bucket.reserve(now: 0)
        }
        #expect(!bucket.isIdle(now: 1))
        #expect(bucket.isIdle(now: 10))
        #expect(bucket.reserve(now: 10) == .go(afterSeconds: 0))
        #expect(bucket.reserve(now: 10) == .go(afterSeconds: 0))
    }

    @Test func aWaitPastTheMaximumIsRefusedAndTakesNoTurn() {
        var bucket = RateLimit.StateMachine(settings: RateLimit(requestsPerSecond: 1, burst: 1, maximumWait: 1.5))
        #expect(bucket.reserve(now: 0) == .go(afterSeconds: 0))
        #expect(bucket.reserve(now: 0) == .go(afterSeconds: 1))
        #expect(bucket.reserve(now: 0) == .refuse(afterSeconds: 2))
        #expect(bucket.reserve(now: 1) == .go(afterSeconds: 1))
    }

    @Test func theServersPauseHoldsEveryRequestUntilItEnds() {
        var bucket = RateLimit.StateMachine(settings: RateLimit(requestsPerSecond: 100, burst: 10, maximumWait: 60))
        bucket.hold(forSeconds: 30, now: 5)
        #expect(bucket.reserve(now: 6) == .go(afterSeconds: 29))
    }

    private func response(_ status: Int, _ headers: [String: String]) -> Response {
        let url = URL(fileURLWithPath: "/")
        return Response(
            statusCode: status,
            data: Data(),
            request: URLRequest(url: url),
            response: HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        )
    }

    @Test func retryAfterOnA429Or503IsAPause() {
        #expect(RateLimitHints.pause(after: response(429, ["Retry-After": "120"])) == 120)
        #expect(RateLimitHints.pause(after: response(503, ["Retry-After": "7"])) == 7)
        #expect(RateLimitHints.pause(after: response(200, ["Retry-After": "7"])) == nil)
    }

    @Test func aSpentQuotaIsAPauseUntilItResets() {
        #expect(RateLimitHints.pause(after: response(200, ["RateLimit": "\"default\";r=0;t=30"])) == 30)
        #expect(RateLimitHints.pause(after: response(200, ["RateLimit": "limit=100, remaining=0, reset=12"])) == 12)
        #expect(RateLimitHints.pause(after: response(200, ["RateLimit": "\"default\";r=5;t=30"])) == nil)
        #expect(
            RateLimitHints.pause(after: response(200, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "45"])) == 45
        )
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let reset = response(200, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1800000060"])
        #expect(RateLimitHints.pause(after: reset, now: now) == 60)
        #expect(
            RateLimitHints.pause(after: response(200, ["X-RateLimit-Remaining": "3", "X-RateLimit-Reset": "45"])) == nil
        )
    }

    @Test func aQuotaWithRequestsLeftIsSpreadOverTheTimeUntilItResets() {
        let hints = RateLimitHints.hints(after: response(200, ["RateLimit": "\"default\";r=5;t=30"]))
        #expect(hints.pause == nil)
        #expect(hints.pace?.interval == 6)
        #expect(hints.pace?.seconds == 30)
        let github = RateLimitHints.hints(
            after: response(200, ["X-RateLimit-Remaining": "3", "X-RateLimit-Reset": "45"])
        )
        #expect(github.pace?.interval == 15)
    }

    @Test func onlyFieldsNamedRateLimitOrXRateLimitInAnyCaseAreRead() {
        #expect(RateLimitHints.isRateLimitField("RateLimit-Policy"))
        #expect(RateLimitHints.isRateLimitField("x-ratelimit-reset"))
        #expect(RateLimitHints.isRateLimitField("X-RATELIMIT-REMAINING"))
        #expect(!RateLimitHints.isRateLimitField("Content-Type"))
        #expect(!RateLimitHints.isRateLimitField("X-Rate"))
        #expect(!RateLimitHints.isRateLimitField("X-"))
        #expect(!RateLimitHints.isRateLimitField("Y-RateLimit"))
        let shouted = RateLimitHints.hints(
            after: response(200, ["X-RATELIMIT-REMAINING": "0", "X-RATELIMIT-RESET": "45"])
        )
        #expect(shouted.pause == 45)
        let plain = RateLimitHints.hints(after: response(200, ["Content-Type": "text/plain", "Retry-After": "9"]))
        #expect(plain == RateLimitHints.Hints())
    }

    @Test func theStrictestStatedPolicyGivesTheSpacing() {
        #expect(RateLimitHints.policyInterval("\"default\";q=100;w=60") == 0.6)
        #expect(RateLimitHints.policyInterval("100;w=60") == 0.6)
        #expect(RateLimitHints.policyInterval("\"burst\";q=10") == nil)
        let hints = RateLimitHints.hints(
            after: response(200, ["RateLimit-Policy": "\"day\";q=1000;w=86400, \"minute\";q=100;w=60"])
        )
        // Of a day's quota and a minute's, the day's spacing keeps both.
        #expect(hints.policyInterval == 86.4)
    }

    @Test func aPacedQuotaSpacesRequestsWithoutABurstUntilItResets() {
        var bucket = RateLimit.StateMachine(settings: RateLimit(requestsPerSecond: 10, burst: 5))
        bucket.follow(RateLimitHints.Hints(pace: (interval: 6, seconds: 30)), now: 0)
        #expect(bucket.reserve(now: 0) == .go(afterSeconds: 0))
        #expect(bucket.reserve(now: 0) == .go(afterSeconds: 6))
        #expect(bucket.reserve(now: 1) == .go(afterSeconds: 11))
        #expect(!bucket.isIdle(now: 29))
        // After the reset, the configured rate and burst again.
        #expect(bucket.reserve(now: 40) == .go(afterSeconds: 0))
        #expect(bucket.reserve(now: 40) == .go(afterSeconds: 0))
    }

    @Test func aStatedPolicySlowerThanTheConfiguredRateSlowsIt() {
        var bucket = RateLimit.StateMachine(settings: RateLimit(requestsPerSecond: 10, burst: 1))
        bucket.follow(RateLimitHints.Hints(policyInterval: 0.5), now: 0)
        #expect(bucket.reserve(now: 0) == .go(afterSeconds: 0))
        #expect(bucket.reserve(now: 0) == .go(afterSeconds: 0.5))
        #expect(bucket.reserve(now: 0) == .go(afterSeconds: 1))
        // A policy faster than the configured rate changes nothing.
        var fast = RateLimit.StateMachine(settings: RateLimit(requestsPerSecond: 1, burst: 1))
        fast.follow(RateLimitHints.Hints(policyInterval: 0.1), now: 0)
        _ = fast.reserve(now: 0)
        #expect(fast.reserve(now: 0) == .go(afterSeconds: 1))
    }
}
