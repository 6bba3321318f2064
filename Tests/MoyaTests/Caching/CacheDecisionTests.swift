import Foundation
import Testing

@testable import Moya

@Suite("Cache decisions (RFC 9111 3 and 4)")
struct CacheDecisionTests {
    typealias F = CacheFixture

    private func decide(
        _ stored: CachedResponse?,
        request: String? = nil,
        policy: CachePolicy = .useProtocol,
        at offset: TimeInterval = 0
    ) -> CacheDecision {
        CacheDecision.decide(
            requestControl: request.map(CacheControl.init) ?? CacheControl(),
            policy: policy,
            stored: stored,
            now: F.now.addingTimeInterval(offset)
        )
    }

    private let freshWithETag = F.response([("Cache-Control", "max-age=60"), ("Date", F.date(0)), ("ETag", "\"v1\"")])

    @Test func aFreshResponseIsServedWithItsAge() {
        #expect(decide(freshWithETag, at: 10) == .serve(freshWithETag, age: 10))
    }

    @Test func aStaleResponseWithAValidatorIsValidated() {
        #expect(decide(freshWithETag, at: 61) == .validate(freshWithETag))
    }

    @Test func aStaleResponseWithoutValidatorIsFetchedAgainAndKeptForErrors() {
        let stored = F.response([("Cache-Control", "max-age=1"), ("Date", F.date(0))])
        #expect(decide(stored, at: 5) == .fetch(stored: stored))
    }

    @Test func nothingStoredMeansFetch() {
        #expect(decide(nil) == .fetch(stored: nil))
    }

    @Test func noCacheInTheResponseOrTheRequestOrThePolicyForcesValidation() {
        let noCache = F.response([("Cache-Control", "no-cache, max-age=60"), ("ETag", "\"a\"")])
        #expect(decide(noCache) == .validate(noCache))
        #expect(decide(freshWithETag, request: "no-cache") == .validate(freshWithETag))
        #expect(decide(freshWithETag, policy: .alwaysRevalidate) == .validate(freshWithETag))
    }

    @Test func requestMaxAgeZeroForcesValidation() {
        #expect(decide(freshWithETag, request: "max-age=0", at: 1) == .validate(freshWithETag))
        #expect(decide(freshWithETag, request: "max-age=30", at: 10) == .serve(freshWithETag, age: 10))
    }

    @Test func minFreshAsksForRemainingFreshness() {
        #expect(decide(freshWithETag, request: "min-fresh=30", at: 40) == .validate(freshWithETag))
        #expect(decide(freshWithETag, request: "min-fresh=30", at: 10) == .serve(freshWithETag, age: 10))
    }

    @Test func maxStaleAllowsAStaleResponseUnlessItMustBeRevalidated() {
        #expect(decide(freshWithETag, request: "max-stale=10", at: 65) == .serve(freshWithETag, age: 65))
        #expect(decide(freshWithETag, request: "max-stale=10", at: 75) == .validate(freshWithETag))
        #expect(decide(freshWithETag, request: "max-stale", at: 10_000) == .serve(freshWithETag, age: 10_000))
        let strict = F.response([("Cache-Control", "max-age=60, must-revalidate"), ("ETag", "\"a\"")])
        #expect(decide(strict, request: "max-stale", at: 65) == .validate(strict))
    }

    @Test func onlyIfCachedServesWhatFitsElseIsUnsatisfiable() {
        #expect(decide(freshWithETag, request: "only-if-cached", at: 1) == .serve(freshWithETag, age: 1))
        #expect(decide(freshWithETag, request: "only-if-cached", at: 100) == .unsatisfiable)
        #expect(decide(nil, request: "only-if-cached") == .unsatisfiable)
    }

    @Test func pragmaNoCacheCountsOnlyWithoutCacheControl() {
        var request = URLRequest(url: URL(string: "https://example.test/")!)
        request.setValue("no-cache", forHTTPHeaderField: "Pragma")
        #expect(CacheDecision.requestControl(of: request).noCache)
        request.setValue("max-age=5", forHTTPHeaderField: "Cache-Control")
        #expect(!CacheDecision.requestControl(of: request).noCache)
    }

    @Test func staleIfErrorByPolicyOrByTheResponseWithinItsLimit() {
        let plain = F.response([("Cache-Control", "max-age=60"), ("Date", F.date(0))])
        let now = F.now.addingTimeInterval(100)
        #expect(CacheDecision.staleIfError(plain, policy: .useProtocol, now: now) == nil)
        #expect(CacheDecision.staleIfError(plain, policy: .staleIfError(), now: now) == 100)
        #expect(CacheDecision.staleIfError(plain, policy: .staleIfError(maxStale: 30), now: now) == nil)
        let allowing = F.response([("Cache-Control", "max-age=60, stale-if-error=50"), ("Date", F.date(0))])
        #expect(CacheDecision.staleIfError(allowing, policy: .useProtocol, now: now) == 100)
        let strict = F.response([("Cache-Control", "max-age=60, must-revalidate"), ("Date", F.date(0))])
        #expect(CacheDecision.staleIfError(strict, policy: .staleIfError(), now: now) == nil)
    }
}

@Suite("Which responses are stored (RFC 9111 3)")
struct CacheStorabilityTests {
    private func problem(
        _ headers: [(String, String)],
        status: Int = 200,
        method: String = "GET",
        request: String = "",
        authorization: Bool = false,
        storesAuthorized: Bool = false
    ) -> CacheStorability.Refusal? {
        CacheStorability.problem(
            .init(
                method: method,
                requestControl: CacheControl(request),
                hasAuthorization: authorization,
                storesAuthorizedResponses: storesAuthorized,
                statusCode: status,
                headers: CachedHeaders(headers.map { CachedHeaders.Field(name: $0.0, value: $0.1) })
            )
        )
    }

    @Test func aPlainOKIsStorableAsHeuristicallyCacheable() {
        #expect(problem([]) == nil)
    }

    @Test func onlyGETIsStored() {
        #expect(problem([("Cache-Control", "max-age=60")], method: "POST") == .method)
        #expect(problem([("Cache-Control", "max-age=60")], method: "HEAD") == .method)
    }

    @Test func noStoreInTheResponseOrTheRequestRefuses() {
        #expect(problem([("Cache-Control", "no-store, max-age=60")]) == .noStore)
        #expect(problem([("Cache-Control", "max-age=60")], request: "no-store") == .noStore)
    }

    @Test func statusCodesNeedExplicitFreshnessUnlessHeuristicallyCacheable() {
        #expect(problem([], status: 500) == .noFreshnessInformation)
        #expect(problem([("Cache-Control", "max-age=60")], status: 500) == nil)
        #expect(problem([], status: 404) == nil)
        #expect(problem([("Cache-Control", "max-age=60")], status: 206) == .status)
        #expect(problem([("Cache-Control", "max-age=60")], status: 304) == .status)
        #expect(problem([("Cache-Control", "private")], status: 302) == nil)
    }

    @Test func varyStarIsNeverStored() {
        #expect(problem([("Cache-Control", "max-age=60"), ("Vary", "Accept, *")]) == .varyAll)
    }

    @Test func authorizationNeedsPublicMustRevalidateSMaxAgeOrTheUsersPolicy() {
        #expect(problem([("Cache-Control", "max-age=60")], authorization: true) == .authorization)
        #expect(problem([("Cache-Control", "private, max-age=60")], authorization: true) == .authorization)
        #expect(problem([("Cache-Control", "public, max-age=60")], authorization: true) == nil)
        #expect(problem([("Cache-Control", "must-revalidate, max-age=60")], authorization: true) == nil)
        #expect(problem([("Cache-Control", "s-maxage=60")], authorization: true) == nil)
        #expect(problem([("Cache-Control", "max-age=60")], authorization: true, storesAuthorized: true) == nil)
    }
}
