import Foundation
import Testing

@testable import Moya

@Suite("Cache-Control parsing")
struct CacheControlTests {
    @Test func responseDirectivesAreRead() {
        let control = CacheControl("public, max-age=60, s-maxage=120, must-revalidate, stale-if-error=30")
        #expect(control.isPublic)
        #expect(control.maxAge == 60)
        #expect(control.sharedMaxAge == 120)
        #expect(control.mustRevalidate)
        #expect(control.staleIfError == 30)
        #expect(!control.noCache && !control.noStore && !control.isPrivate)
    }

    @Test func requestDirectivesAreRead() {
        let control = CacheControl("no-cache, max-stale=5, min-fresh=10, only-if-cached, no-store")
        #expect(control.noCache && control.noStore && control.onlyIfCached)
        #expect(control.maxStale == 5)
        #expect(control.minFresh == 10)
    }

    @Test func namesAreCaseInsensitiveAndSpacesAroundEqualsAreTolerated() {
        let control = CacheControl("  MAX-AGE = 42 ,No-Store")
        #expect(control.maxAge == 42)
        #expect(control.noStore)
    }

    @Test func quotedArgumentsAreAcceptedAndTheirCommasDoNotSplit() {
        let control = CacheControl(#"private="Set-Cookie, X-Secret", max-age="30", no-cache="a\"b""#)
        #expect(control.isPrivate)
        #expect(control.maxAge == 30)
        #expect(control.noCache)
    }

    @Test func anInvalidMaxAgeMakesTheResponseStale() {
        #expect(CacheControl("max-age=ten").maxAge == 0)
        #expect(CacheControl("max-age=-5").maxAge == 0)
        #expect(CacheControl("max-age").maxAge == 0)
    }

    @Test func aHugeDeltaIsClampedToTwoToTheThirtyFirst() {
        #expect(CacheControl("max-age=99999999999999999999999999").maxAge == CacheControl.deltaSecondsLimit)
    }

    @Test func theFirstOfDuplicatedDirectivesWins() {
        #expect(CacheControl(fieldValues: ["max-age=10", "max-age=0"]).maxAge == 10)
    }

    @Test func aBareMaxStaleAcceptsAnyStaleness() {
        #expect(CacheControl("max-stale").maxStale == Int.max)
        #expect(CacheControl("max-stale=abc").maxStale == 0)
    }

    @Test func unknownDirectivesAndGarbageAreIgnored() {
        let control = CacheControl(",,, =5, \"unterminated, immutable, foo=bar baz, no-store")
        #expect(control.noStore)
        #expect(control.maxAge == nil)
        #expect(CacheControl("\u{0}\u{FFFD}==,=\"").maxAge == nil)
    }

    @Test func anUnterminatedQuoteRunsToTheEnd() {
        let control = CacheControl("max-age=\"12")
        #expect(control.maxAge == 12)
    }
}

@Suite("HTTP dates")
struct HTTPDateTests {
    private let expected = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
        "sun, 06 nov 1994 08:49:37 gmt",
    ])
    func theThreeFormsAreRead(text: String) {
        #expect(HTTPDate.parse(text) == expected)
    }

    @Test func leapYearsAndCenturiesAreCounted() {
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") == Date(timeIntervalSince1970: 951_782_400))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
    }

    @Test(arguments: [
        "", "0", "-1", "tomorrow", "Sun, 06 Nov 1994", "Sun, 32 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov Nov 1994 08:49:37 GMT", "Sun, 06 Nov 199 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49 GMT", "Thu, 29 Feb 2001 00:00:00 GMT", "Tue, 31 Apr 2001 00:00:00 GMT",
        "Sun, 06 Nov 1994 08:49:37:00 GMT", "Sun, 006 Nov 1994 08:49:37 GMT",
    ])
    func garbageIsNoDate(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
