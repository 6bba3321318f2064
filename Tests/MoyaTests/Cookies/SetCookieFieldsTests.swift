import Foundation
import Testing

@testable import Moya

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a response's `Set-Cookie` fields ask of the storage, as RFC 6265 reads them.
@Suite("Set-Cookie fields")
struct SetCookieFieldsTests {
    private let url = URL(string: "http://example.com/account") ?? URL(fileURLWithPath: "/")
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func removed(_ changes: [CookieChange]) -> [String] {
        changes.compactMap { if case .remove(let cookie) = $0 { cookie.name } else { nil } }
    }

    private func stored(_ changes: [CookieChange]) -> [HTTPCookie] {
        changes.compactMap { if case .store(let cookie, _) = $0 { cookie } else { nil } }
    }

    @Test(arguments: ["sid=x; Max-Age=0", "sid=x; max-age=-30", "sid=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT"])
    func anExpiredCookieIsARemoval(_ field: String) {
        let parsed = SetCookieFields([field], from: url, now: now)
        #expect(removed(parsed.changes) == ["sid"])
        #expect(removed(parsed.maxAgeCorrections) == ["sid"])
    }

    @Test func aPositiveMaxAgeExpiresThatManySecondsFromNow() throws {
        let parsed = SetCookieFields(["pref=dark; Max-Age=3600; Path=/"], from: url, now: now)
        let cookie = try #require(stored(parsed.changes).first)
        #expect(cookie.name == "pref")
        #expect(cookie.value == "dark")
        #expect(cookie.expiresDate == now.addingTimeInterval(3600))
        #expect(SetCookieFields.maxAge(of: cookie) == nil)
    }

    @Test func aMaxAgeThatIsNotANumberIsIgnored() throws {
        let parsed = SetCookieFields(["sid=x; Max-Age=soon"], from: url, now: now)
        let cookie = try #require(stored(parsed.changes).first)
        #expect(cookie.name == "sid")
        #expect(parsed.maxAgeCorrections.isEmpty)
    }

    @Test func aSessionCookieIsStoredAsParsedAndNeedsNoCorrection() {
        let parsed = SetCookieFields(["sid=x; Path=/"], from: url, now: now)
        #expect(stored(parsed.changes).map(\.name) == ["sid"])
        #expect(parsed.maxAgeCorrections.isEmpty)
        #expect(parsed.dropped == 0)
    }

    @Test func oneResponseSetsAtMostTheLimitAndCountsTheRest() {
        let fields = (0..<120).map { "c\($0)=v" }
        let parsed = SetCookieFields(fields, from: url, now: now)
        #expect(parsed.changes.count == SetCookieFields.defaultLimit)
        #expect(parsed.dropped == 120 - SetCookieFields.defaultLimit)
        #expect(parsed.changes.first?.cookie.name == "c0")
    }
}
