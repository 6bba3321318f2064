import AsyncHTTPClient
import Foundation
import Testing

@testable import Moya

/// The session's redirect settings as both transports apply them, alone.
@Suite("Redirect rule")
struct RedirectRuleTests {
    private let start = URL(string: "http://127.0.0.1:8080/start")!

    private func request(_ url: String, authorization: String? = "Bearer secret") -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        request.setValue("sid=1", forHTTPHeaderField: "Cookie")
        return request
    }

    @Test func theSettingsAreReadFromTheSessionsRedirectPolicy() {
        let follow = RedirectRule(.follow(max: 3, allowCycles: true))
        #expect(follow.limit == 3 && follow.allowsCycles && !follow.retainsPostOn301)
        let keeping = RedirectRule(
            .follow(max: 2, allowCycles: false, retainHTTPMethodAndBodyOn301: true, retainHTTPMethodAndBodyOn302: false)
        )
        #expect(keeping.retainsPostOn301 && !keeping.retainsPostOn302)
        let disallow = RedirectRule(.disallow)
        #expect(disallow.limit == nil)
        #expect(RedirectRule(.follow(max: -1, allowCycles: false)).limit == 0)
    }

    @Test func aRedirectToTheSameOriginKeepsItsCredentials() {
        let redirects = RedirectRule(limit: 5, allowsCycles: false)
        let next = request("http://127.0.0.1:8080/next")
        #expect(redirects.decide(from: start, to: next, visited: [start]) == .follow(next))
    }

    @Test func aRedirectToAnotherOriginDropsAuthorizationAndCookie() {
        let redirects = RedirectRule(limit: 5, allowsCycles: false)
        for other in ["http://localhost:8080/next", "http://127.0.0.1:8081/next", "https://127.0.0.1:8080/next"] {
            let decision = redirects.decide(from: start, to: request(other), visited: [start])
            guard case .follow(let followed) = decision else {
                Issue.record("expected to follow \(other), got \(decision)")
                continue
            }
            #expect(followed.value(forHTTPHeaderField: "Authorization") == nil)
            #expect(followed.value(forHTTPHeaderField: "Cookie") == nil)
        }
    }

    @Test func theLimitIsTheNumberOfRedirectsFollowed() {
        let redirects = RedirectRule(limit: 2, allowsCycles: true)
        let next = request("http://127.0.0.1:8080/next")
        #expect(redirects.decide(from: start, to: next, visited: [start, start]) == .follow(next))
        #expect(redirects.decide(from: start, to: next, visited: [start, start, start]) == .refuse)
    }

    @Test func aCycleIsRefusedUnlessCyclesAreAllowed() {
        let back = request(start.absoluteString)
        #expect(
            RedirectRule(limit: 5, allowsCycles: false).decide(from: start, to: back, visited: [start])
                == .refuse
        )
        #expect(
            RedirectRule(limit: 5, allowsCycles: true).decide(from: start, to: back, visited: [start])
                == .follow(back)
        )
    }

    @Test func disallowedRedirectsDeliverTheRedirectItself() {
        let redirects = RedirectRule(limit: nil, allowsCycles: false)
        #expect(
            redirects.decide(from: start, to: request("http://127.0.0.1:8080/x"), visited: [start]) == .deliverRedirect
        )
    }
}
