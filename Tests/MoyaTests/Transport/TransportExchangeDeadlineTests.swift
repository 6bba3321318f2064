import Foundation
import NIOCore
import Testing

@testable import Moya

/// The whole-request deadline an exchange carries on both clocks.
@Suite("An exchange's deadline on Swift's clock and SwiftNIO's")
struct TransportExchangeDeadlineTests {
    private let request = URLRequest(url: URL(fileURLWithPath: "/"))
    private let endpoint = Endpoint(
        url: "https://example.test",
        sampleResponseClosure: { .networkResponse(200, Data()) },
        method: .get,
        task: .requestPlain,
        httpHeaderFields: nil
    )

    private func exchange(fixing nio: NIODeadline?) -> TransportExchange {
        TransportExchange(
            request: request,
            endpoint: endpoint,
            nioDeadline: nio,
            cancellation: TransportCancellation(),
            sessionHeaders: [:]
        )
    }

    @Test func theDeadlineTheLifecycleFixedIsHandedBackUnconverted() throws {
        let fixed = NIODeadline.now() + .seconds(30)
        let exchange = exchange(fixing: fixed)
        #expect(exchange.nioDeadline == fixed)
        let instant = try #require(exchange.deadline)
        let left = instant - ContinuousClock.now
        #expect(left > .seconds(29) && left <= .seconds(30))
    }

    @Test func aDeadlineMovedByADecoratorIsConvertedToSwiftNIOsClock() throws {
        var exchange = exchange(fixing: NIODeadline.now() + .seconds(30))
        exchange.deadline = ContinuousClock.now + .seconds(5)
        let converted = try #require(exchange.nioDeadline)
        let left = converted - NIODeadline.now()
        #expect(left > .seconds(4) && left <= .seconds(5))
        exchange.deadline = nil
        #expect(exchange.nioDeadline == nil)
    }

    @Test func noTimeoutIsNoDeadlineOnEitherClock() {
        let exchange = exchange(fixing: nil)
        #expect(exchange.deadline == nil)
        #expect(exchange.nioDeadline == nil)
    }
}
