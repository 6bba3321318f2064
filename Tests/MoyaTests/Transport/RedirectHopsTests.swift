import Foundation
import Testing

@testable import Moya

/// The redirects of one exchange, alone: which heads are followed, how the next request is
/// built from the one before, and when it is too many.
@Suite("Redirect hops")
struct RedirectHopsTests {
    private let start = URL(string: "http://127.0.0.1:8080/start")!

    private func makeHops(limit: Int? = 5, allowsCycles: Bool = false, retainsPost: Bool = false) -> RedirectHops? {
        RedirectHops(
            rule: RedirectRule(
                limit: limit,
                allowsCycles: allowsCycles,
                retainsPostOn301: retainsPost,
                retainsPostOn302: retainsPost
            ),
            firstURL: start
        )
    }

    private func post(_ url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data("form".utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        return request
    }

    @Test func noHopsAreKeptWhenTheSessionFollowsNoRedirects() {
        #expect(makeHops(limit: nil) == nil)
    }

    @Test(arguments: [200, 204, 304, 305, 400, 500])
    func aResponseThatIsNoFollowedRedirectIsTheAnswer(status: Int) throws {
        var hops = try #require(makeHops())
        #expect(hops.next(status: status, location: "/elsewhere", after: post(start)) == .deliver)
        #expect(hops.visited == [start])
    }

    @Test(arguments: [nil, "", "ftp://127.0.0.1/file", "file:///etc/passwd", "http://"])
    func aRedirectWithoutAUsableLocationIsTheAnswer(location: String?) throws {
        var hops = try #require(makeHops())
        #expect(hops.next(status: 302, location: location, after: post(start)) == .deliver)
    }

    @Test func aRelativeLocationIsResolvedFromTheRequestsURL() throws {
        var hops = try #require(makeHops())
        guard case .follow(let next, _) = hops.next(status: 307, location: "../other?x=1", after: post(start)) else {
            Issue.record("expected to follow")
            return
        }
        #expect(next.url?.absoluteString == "http://127.0.0.1:8080/other?x=1")
        #expect(hops.visited.count == 2)
    }

    @Test(arguments: [301, 302, 303])
    func aPostRedirectedWith301To303BecomesAGetWithoutItsBody(status: Int) throws {
        var hops = try #require(makeHops())
        let step = hops.next(status: status, location: "/next", after: post(start))
        guard case .follow(let next, let keepsBody) = step else {
            Issue.record("expected to follow, got \(step)")
            return
        }
        #expect(!keepsBody)
        #expect(next.httpMethod == "GET")
        #expect(next.httpBody == nil)
        #expect(next.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(next.value(forHTTPHeaderField: "Authorization") == "Bearer t")
    }

    @Test(arguments: [307, 308])
    func a307Or308KeepsTheMethodAndTheBody(status: Int) throws {
        var hops = try #require(makeHops())
        let step = hops.next(status: status, location: "/next", after: post(start))
        guard case .follow(let next, let keepsBody) = step else {
            Issue.record("expected to follow, got \(step)")
            return
        }
        #expect(keepsBody)
        #expect(next.httpMethod == "POST")
        #expect(next.httpBody == Data("form".utf8))
    }

    @Test func aRuleThatRetainsPostKeepsItOn301And302ButNotOn303() throws {
        var hops = try #require(makeHops(retainsPost: true))
        for status in [301, 302] {
            guard case .follow(let next, true) = hops.next(status: status, location: "/n\(status)", after: post(start))
            else {
                Issue.record("expected \(status) to keep the POST")
                continue
            }
            #expect(next.httpMethod == "POST")
        }
        guard case .follow(let next, false) = hops.next(status: 303, location: "/n303", after: post(start)) else {
            Issue.record("expected 303 to become a GET")
            return
        }
        #expect(next.httpMethod == "GET")
    }

    @Test func aRedirectToAnotherOriginDropsTheCredentials() throws {
        var hops = try #require(makeHops())
        let step = hops.next(status: 307, location: "http://localhost:9000/next", after: post(start))
        guard case .follow(let next, _) = step else {
            Issue.record("expected to follow, got \(step)")
            return
        }
        #expect(next.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func theLimitCountsTheRedirectsFollowed() throws {
        var hops = try #require(makeHops(limit: 2, allowsCycles: true))
        var request = URLRequest(url: start)
        for hop in 1...2 {
            guard case .follow(let next, _) = hops.next(status: 302, location: "/hop\(hop)", after: request) else {
                Issue.record("expected hop \(hop) to be followed")
                return
            }
            request = next
        }
        #expect(hops.next(status: 302, location: "/hop3", after: request) == .tooManyRedirects)
    }

    @Test func aRedirectBackToAVisitedURLIsACycleUnlessCyclesAreAllowed() throws {
        var strict = try #require(makeHops())
        #expect(strict.next(status: 302, location: "/start", after: URLRequest(url: start)) == .tooManyRedirects)
        var lenient = try #require(makeHops(allowsCycles: true))
        #expect(lenient.next(status: 302, location: "/start", after: URLRequest(url: start)) != .tooManyRedirects)
    }
}
