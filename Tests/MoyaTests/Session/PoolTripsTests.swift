import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

@testable import Moya

/// What follows a trip to the connection pool that failed: the rules both of the session's
/// transports share (`PoolTrips`).
@Suite("Pool trips: what follows a failed trip")
struct PoolTripsTests {
    private let url = URL(string: "https://api.example.test/items")!

    private func trips(_ configuration: Session.Configuration, timeoutInterval: TimeInterval? = nil) -> PoolTrips {
        var request = URLRequest(url: url)
        if let timeoutInterval {
            request.timeoutInterval = timeoutInterval
        }
        let endpoint = Endpoint(
            url: url.absoluteString,
            sampleResponseClosure: { .networkResponse(200, Data()) },
            method: .get,
            task: .requestPlain,
            httpHeaderFields: nil
        )
        return PoolTrips(
            exchange: TransportExchange(
                request: request,
                endpoint: endpoint,
                deadline: nil,
                cancellation: TransportCancellation()
            ),
            configuration: configuration,
            redirects: RedirectRule(configuration.redirectConfiguration)
        )
    }

    /// The error `next` fails the exchange with; `nil`, and an issue, when it queues it again.
    private func failure(_ next: PoolTrips.AfterFailure) -> Error? {
        guard case .fail(let error) = next else {
            Issue.record("expected a failure, got \(next)")
            return nil
        }
        return error
    }

    @Test func theRequestsOwnTimeoutIntervalBoundsItsWaitAndTheSessionsDefaultOtherwise() {
        let configuration = Session.Configuration(readTimeout: .seconds(30), requestTimeout: nil)
        #expect(trips(configuration).idleTimeout == .seconds(30))
        #expect(trips(configuration).wait.budget == .seconds(30))
        let own = trips(configuration, timeoutInterval: 5)
        #expect(own.idleTimeout == .seconds(5))
        #expect(own.wait.budget == .seconds(5))
    }

    @Test func aTripThePoolGaveUpOnWithTimeLeftIsQueuedAgain() {
        let session = AsyncHTTPClientTransport(configuration: Session.Configuration())
        let next = session.afterFailure(HTTPClientError.getConnectionFromPoolTimeout, of: trips(session.configuration))
        guard case .queueAgain = next else {
            Issue.record("expected the trip to be queued again, got \(next)")
            return
        }
    }

    @Test func aTripThePoolGaveUpOnAfterItsWholeWaitFailsWithATimeoutThatNamesTheWait() throws {
        let configuration = Session.Configuration(readTimeout: .zero, requestTimeout: nil)
        let session = AsyncHTTPClientTransport(configuration: configuration)
        let next = session.afterFailure(HTTPClientError.getConnectionFromPoolTimeout, of: trips(configuration))
        let nsError = try #require(failure(next)) as NSError
        #expect(nsError.domain == NSURLErrorDomain)
        #expect(nsError.code == NSURLErrorTimedOut)
        #expect(nsError.localizedDescription.contains("waiting"))
        #expect(nsError.localizedDescription.contains("connection"))
    }

    @Test func aStreamWhoseHeadReachedItsReaderIsNeverQueuedAgain() {
        let session = AsyncHTTPClientTransport(configuration: Session.Configuration())
        let next = session.afterFailure(
            HTTPClientError.getConnectionFromPoolTimeout,
            of: trips(session.configuration),
            mayQueueAgain: false
        )
        #expect(failure(next) != nil)
    }

    @Test func aPassedDeadlineFailsWithTheWholeRequestTimeoutThatSetIt() throws {
        let configuration = Session.Configuration(requestTimeout: .seconds(3))
        let session = AsyncHTTPClientTransport(configuration: configuration)
        let next = session.afterFailure(HTTPClientError.deadlineExceeded, of: trips(configuration))
        let error = try #require(failure(next))
        #expect((error as NSError).code == NSURLErrorTimedOut)
        #expect(error.localizedDescription.contains("whole-request timeout of 3.0 seconds"))
    }
}
