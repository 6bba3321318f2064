import Foundation
import Testing

@testable import Moya

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cookie jar's rules alone: where a lookup reads, what waits for the writer, and what a
/// full storage refuses.
@Suite("Cookie jar: state")
struct CookieJarStateTests {
    private let url = URL(fileURLWithPath: "/")

    private func cookie(_ name: String, domain: String = "example.com", path: String = "/") throws -> HTTPCookie {
        try #require(HTTPCookie(properties: [.name: name, .value: "v", .domain: domain, .path: path]))
    }

    private func batch(_ changes: [CookieChange]) -> CookieJar.Batch {
        CookieJar.Batch(changes: changes, written: nil)
    }

    @Test func lookupsReadTheStorageWhileNothingWaitsToBeWritten() {
        let state = CookieJar.State(capacity: 10)
        #expect(!state.isWriting)
        #expect(state.cookies(forHost: "example.com") == nil)
    }

    @Test func theFirstBatchStartsTheWriterAndLookupsSeeItAtOnce() throws {
        var state = CookieJar.State(capacity: 10)
        let stored = try cookie("old")
        let (action, dropped) = state.enqueue(batch([.store(try cookie("new"), from: url)])) { [stored] }
        #expect(action == .startWriter)
        #expect(dropped == 0)
        #expect(state.isWriting)
        let names = state.cookies(forHost: "example.com")?.map(\.name).sorted()
        #expect(names == ["new", "old"])
    }

    @Test func aBatchWhileWritingQueuesBehindWithoutReadingTheStorageAgain() throws {
        var state = CookieJar.State(capacity: 10)
        _ = state.enqueue(batch([.store(try cookie("a"), from: url)])) { [] }
        var readAgain = false
        let (action, _) = state.enqueue(batch([.store(try cookie("b"), from: url)])) {
            readAgain = true
            return []
        }
        #expect(action == .none)
        #expect(!readAgain)
        #expect(state.nextBatch()?.changes.map(\.cookie.name) == ["a"])
        #expect(state.nextBatch()?.changes.map(\.cookie.name) == ["b"])
        #expect(state.isWriting)
        #expect(state.nextBatch() == nil)
        #expect(!state.isWriting)
        #expect(state.cookies(forHost: "example.com") == nil)
    }

    @Test func aRemovalTakesTheCookieOutOfTheMirror() throws {
        var state = CookieJar.State(capacity: 10)
        let sid = try cookie("sid")
        _ = state.enqueue(batch([.remove(sid)])) { [sid] }
        #expect(state.cookies(forHost: "example.com")?.isEmpty == true)
    }

    @Test func aNewCookieWithTheSameNameDomainAndPathReplacesTheOld() throws {
        var state = CookieJar.State(capacity: 1)
        let first = try #require(
            HTTPCookie(properties: [.name: "sid", .value: "1", .domain: "example.com", .path: "/"])
        )
        let second = try #require(
            HTTPCookie(properties: [.name: "sid", .value: "2", .domain: "EXAMPLE.com", .path: "/"])
        )
        let (_, dropped) = state.enqueue(batch([.store(second, from: url)])) { [first] }
        #expect(dropped == 0)
        #expect(state.cookies(forHost: "example.com")?.map(\.value) == ["2"])
    }

    @Test func aFullStorageRefusesNewCookiesButNotReplacementsOrRemovals() throws {
        var state = CookieJar.State(capacity: 2)
        let stored = [try cookie("a"), try cookie("b")]
        let changes: [CookieChange] = [
            .store(try cookie("c"), from: url), .store(try cookie("a"), from: url), .remove(try cookie("b")),
            .store(try cookie("d"), from: url),
        ]
        let (_, dropped) = state.enqueue(batch(changes)) { stored }
        #expect(dropped == 1)
        #expect(state.nextBatch()?.changes.map(\.cookie.name) == ["a", "b", "d"])
        #expect(state.cookies(forHost: "example.com")?.map(\.name).sorted() == ["a", "d"])
    }

    @Test func aDomainMatchesItselfAndADotDomainMatchesItsSubdomains() {
        #expect(CookieJar.State.domain("example.com", matches: "example.com"))
        #expect(!CookieJar.State.domain("example.com", matches: "api.example.com"))
        #expect(CookieJar.State.domain(".example.com", matches: "api.example.com"))
        #expect(CookieJar.State.domain(".example.com", matches: "example.com"))
        #expect(!CookieJar.State.domain(".example.com", matches: "badexample.com"))
    }
}
