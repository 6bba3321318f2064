import Testing

@testable import Moya

/// The session's default headers, checked once when a transport is made.
struct SessionHeadersTests {
    @Test func legalHeadersAreKeptWithNoProblem() {
        let headers = SessionHeaders(["User-Agent": "Moya/15", "Accept": "*/*"])
        #expect(headers.problem == nil)
        #expect(headers.count == 2)
        #expect(Set(headers.fields.map(\.name)) == ["User-Agent", "Accept"])
        #expect(headers.fields.first { $0.name == "Accept" }?.value == "*/*")
    }

    @Test func anIllegalHeaderIsKeptAsTheProblemEveryRequestFailsWith() {
        let headers = SessionHeaders(["X-Trace": "a\r\nInjected: yes", "Accept": "*/*"])
        #expect(headers.problem?.code == .invalidHeader)
    }

    @Test func namesDifferingOnlyInCaseAreKeptOnce() {
        let headers = SessionHeaders(["X-Mark": "upper", "x-mark": "lower", "Accept": "*/*"])
        #expect(headers.count == 2)
        #expect(headers.fields.filter { HeaderValidation.isSameName($0.name, "x-mark") }.count == 1)
    }

    @Test func namesDifferingOnlyInBitFiveAreDistinct() {
        let headers = SessionHeaders(["X-Mark~": "a", "X-Mark^": "b"])
        #expect(headers.count == 2)
    }

    @Test func noHeadersIsEmpty() {
        let headers = SessionHeaders([:])
        #expect(headers.isEmpty)
        #expect(headers.problem == nil)
    }
}
