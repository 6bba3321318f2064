import Foundation
import Testing

@testable import Moya

@Suite("RetryPolicy decisions and Retry-After")
struct RetryPolicyTests {
    private let url = URL(fileURLWithPath: "/")

    private func request(_ method: String = "GET") -> URLRequest {
        var request = URLRequest(url: URL(fileURLWithPath: "/items"))
        request.httpMethod = method
        return request
    }

    private func response(_ statusCode: Int, headers: [String: String] = [:]) -> Result<Moya.Response, MoyaError> {
        let http = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
        return .success(Moya.Response(statusCode: statusCode, data: Data(), response: http))
    }

    private func urlError(_ code: Int) -> Result<Moya.Response, MoyaError> {
        .failure(.underlying(NSError(domain: NSURLErrorDomain, code: code), nil))
    }

    private func delay(_ decision: RetryResult) -> TimeInterval? {
        if case .retryWithDelay(let seconds) = decision { return seconds }
        return nil
    }

    @Test func retryableStatusOfAGetBacksOffExponentially() {
        let policy = RetryPolicy(exponentialBackoffBase: 2, exponentialBackoffScale: 0.5, jitter: 0.5)
        #expect(delay(policy.decision(for: request(), attempt: 1, result: response(503), random: 0)) == 0.5)
        #expect(delay(policy.decision(for: request(), attempt: 2, result: response(503), random: 0)) == 1.0)
        // The jitter takes up to half of the delay away.
        #expect(delay(policy.decision(for: request(), attempt: 2, result: response(503), random: 1)) == 0.5)
    }

    @Test func everyDefaultRetryableStatusIsRetriedAndOthersAreNot() {
        let policy = RetryPolicy()
        for status in [408, 429, 500, 502, 503, 504] {
            #expect(
                delay(policy.decision(for: request(), attempt: 1, result: response(status), random: 0)) != nil,
                "\(status)"
            )
        }
        for status in [200, 301, 400, 401, 404, 501] {
            #expect(
                delay(policy.decision(for: request(), attempt: 1, result: response(status), random: 0)) == nil,
                "\(status)"
            )
        }
    }

    @Test func retriesStopAtTheLimit() {
        let policy = RetryPolicy(retryLimit: 2)
        #expect(delay(policy.decision(for: request(), attempt: 2, result: response(503), random: 0)) != nil)
        #expect(delay(policy.decision(for: request(), attempt: 3, result: response(503), random: 0)) == nil)
    }

    @Test func nonIdempotentMethodsAreRetriedOnlyWhenAllowed() {
        #expect(
            delay(RetryPolicy().decision(for: request("POST"), attempt: 1, result: response(503), random: 0)) == nil
        )
        #expect(
            delay(RetryPolicy().decision(for: request("PATCH"), attempt: 1, result: response(503), random: 0)) == nil
        )
        #expect(delay(RetryPolicy().decision(for: request("PUT"), attempt: 1, result: response(503), random: 0)) != nil)
        let allowing = RetryPolicy(retriesNonIdempotentMethods: true)
        #expect(delay(allowing.decision(for: request("POST"), attempt: 1, result: response(503), random: 0)) != nil)
    }

    @Test func transientTransportErrorsAreRetriedButCancellationIsNot() {
        let policy = RetryPolicy()
        #expect(
            delay(policy.decision(for: request(), attempt: 1, result: urlError(NSURLErrorTimedOut), random: 0)) != nil
        )
        #expect(
            delay(
                policy.decision(
                    for: request(),
                    attempt: 1,
                    result: urlError(NSURLErrorNetworkConnectionLost),
                    random: 0
                )
            ) != nil
        )
        #expect(
            delay(
                policy.decision(for: request(), attempt: 1, result: urlError(NSURLErrorCannotConnectToHost), random: 0)
            ) != nil
        )
        #expect(
            delay(policy.decision(for: request(), attempt: 1, result: urlError(NSURLErrorCancelled), random: 0)) == nil
        )
        #expect(
            delay(
                policy.decision(
                    for: request(),
                    attempt: 1,
                    result: urlError(NSURLErrorServerCertificateUntrusted),
                    random: 0
                )
            ) == nil
        )
        #expect(
            delay(
                policy.decision(
                    for: request(),
                    attempt: 1,
                    result: .failure(.jsonMapping(Moya.Response(statusCode: 200, data: Data()))),
                    random: 0
                )
            ) == nil
        )
    }

    @Test func retryAfterInSecondsReplacesTheBackoff() {
        let policy = RetryPolicy()
        let decision = policy.decision(
            for: request(),
            attempt: 1,
            result: response(429, headers: ["Retry-After": "7"]),
            random: 0.3
        )
        #expect(delay(decision) == 7)
    }

    @Test func retryAfterBeyondTheMaximumDelayEndsTheRetries() {
        let policy = RetryPolicy(maximumDelay: 10)
        #expect(
            delay(
                policy.decision(
                    for: request(),
                    attempt: 1,
                    result: response(503, headers: ["Retry-After": "3600"]),
                    random: 0
                )
            ) == nil
        )
    }

    @Test func retryAfterParsesSecondsAndTheThreeHTTPDateForms() throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2015-10-21T07:28:00Z"))
        #expect(RetryAfter.delay(parsing: "120", now: now) == 120)
        #expect(RetryAfter.delay(parsing: " 5 ", now: now) == 5)
        #expect(RetryAfter.delay(parsing: "Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
        #expect(RetryAfter.delay(parsing: "Wednesday, 21-Oct-15 07:29:00 GMT", now: now) == 60)
        #expect(RetryAfter.delay(parsing: "Wed Oct 21 07:28:10 2015", now: now) == 10)
        #expect(RetryAfter.delay(parsing: "Wed, 21 Oct 2015 07:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.delay(parsing: "soon", now: now) == nil)
        #expect(RetryAfter.delay(parsing: "-5", now: now) == nil)
    }
}
