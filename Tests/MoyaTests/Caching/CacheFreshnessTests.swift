import Foundation
import Testing

@testable import Moya

@Suite("Cache freshness (RFC 9111 4.2)")
struct CacheFreshnessTests {
    typealias F = CacheFixture

    @Test func maxAgeGivesTheLifetimeAndTimeInTheCacheTheAge() {
        let stored = F.response([("Cache-Control", "max-age=60"), ("Date", F.date(0))])
        let freshness = CacheFreshness(of: stored, now: F.now.addingTimeInterval(20))
        #expect(freshness.lifetime == 60)
        #expect(freshness.age == 20)
        #expect(freshness.isFresh)
        #expect(!CacheFreshness(of: stored, now: F.now.addingTimeInterval(61)).isFresh)
    }

    @Test func theAgeHeaderAndTheRequestsDelayAddUp() {
        // 4.2.3: corrected_age_value = age_value + response_delay.
        let stored = F.response([("Cache-Control", "max-age=60"), ("Date", F.date(0)), ("Age", "30")], delay: 2)
        let freshness = CacheFreshness(of: stored, now: F.now.addingTimeInterval(10))
        #expect(freshness.age == 42)
    }

    @Test func anOldDateMakesTheApparentAge() {
        let stored = F.response([("Cache-Control", "max-age=60"), ("Date", F.date(-100))])
        #expect(CacheFreshness(of: stored, now: F.now).age == 100)
        #expect(!CacheFreshness(of: stored, now: F.now).isFresh)
    }

    @Test func headersUpdatedByA304AreWhatTheFreshnessIsJudgedBy() {
        var stored = F.response([("Cache-Control", "max-age=60"), ("Date", F.date(0)), ("Age", "30")])
        stored.headers = stored.headers.updated(
            with: ["Cache-Control": "max-age=5", "Date": F.date(-100), "Age": "2"]
        )
        let freshness = CacheFreshness(of: stored, now: F.now)
        #expect(freshness.lifetime == 5)
        #expect(freshness.age == 100)
        // What a hit serves follows too, without the stored `Age`, which serving sets anew.
        #expect(stored.parsed.servedHeaders["Cache-Control"] == ["max-age=5"])
        #expect(stored.parsed.servedHeaders["Age"].isEmpty)
    }

    @Test func aRefreshByA304TakesItsHeadersAndTimesAndARepeatChangesOnlyTheTimes() {
        let stored = F.response([("Cache-Control", "max-age=60"), ("Date", F.date(0))])
        let later = F.now.addingTimeInterval(100)
        let refreshed = stored.refreshed(
            by: ["Cache-Control": "max-age=5", "Date": F.date(100)],
            requestTime: later,
            responseTime: later
        )
        #expect(refreshed.requestTime == later && refreshed.responseTime == later)
        #expect(CacheFreshness(of: refreshed, now: later).lifetime == 5)
        #expect(CacheFreshness(of: refreshed, now: later).age == 0)
        let second = later.addingTimeInterval(1)
        let again = refreshed.refreshed(by: ["Date": F.date(100)], requestTime: second, responseTime: second)
        #expect(again.headers == refreshed.headers)
        #expect(again.responseTime == second)
        #expect(CacheFreshness(of: again, now: second).age == 1)
    }

    @Test func maxAgeWinsOverExpires() {
        let stored = F.response([("Cache-Control", "max-age=5"), ("Expires", F.date(3600)), ("Date", F.date(0))])
        #expect(CacheFreshness(of: stored, now: F.now).lifetime == 5)
    }

    @Test func expiresCountsFromDate() {
        let stored = F.response([("Expires", F.date(120)), ("Date", F.date(20))])
        let freshness = CacheFreshness(of: stored, now: F.now)
        #expect(freshness.lifetime == 100)
        #expect(!freshness.isHeuristic)
    }

    @Test func anInvalidExpiresMeansExpired() {
        let stored = F.response([("Expires", "0"), ("Last-Modified", F.date(-86_400))])
        let freshness = CacheFreshness(of: stored, now: F.now)
        #expect(freshness.lifetime == 0)
        #expect(!freshness.isFresh)
    }

    @Test func sharedMaxAgeIsIgnoredByAPrivateCache() {
        let stored = F.response([("Cache-Control", "s-maxage=600"), ("Date", F.date(0))])
        #expect(CacheFreshness(of: stored, now: F.now).lifetime == 0)
    }

    @Test func heuristicIsATenthOfTheTimeSinceLastModified() {
        let stored = F.response([("Date", F.date(0)), ("Last-Modified", F.date(-1000))])
        let freshness = CacheFreshness(of: stored, now: F.now)
        #expect(freshness.isHeuristic)
        #expect(freshness.lifetime == 100)
    }

    @Test func heuristicIsCappedAtADay() {
        let stored = F.response([("Date", F.date(0)), ("Last-Modified", F.date(-100 * 86_400))])
        #expect(CacheFreshness(of: stored, now: F.now).lifetime == CacheFreshness.heuristicLimit)
    }

    @Test func noHeuristicForAStatusThatIsNotHeuristicallyCacheable() {
        let stored = F.response([("Date", F.date(0)), ("Last-Modified", F.date(-1000))], status: 302)
        #expect(CacheFreshness(of: stored, now: F.now).lifetime == 0)
        let marked = F.response(
            [("Date", F.date(0)), ("Last-Modified", F.date(-1000)), ("Cache-Control", "public")],
            status: 302
        )
        #expect(CacheFreshness(of: marked, now: F.now).lifetime == 100)
    }

    @Test func noHeuristicWithoutLastModified() {
        #expect(CacheFreshness(of: F.response([("Date", F.date(0))]), now: F.now).lifetime == 0)
    }
}
