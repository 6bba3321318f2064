import Foundation
import NIOCore

extension TransportExchange {
    /// An attempt whose whole-request deadline the lifecycle fixed on SwiftNIO's clock, which
    /// the package's transports run on; `deadline` gives it on Swift's.
    init(
        request: URLRequest,
        endpoint: Endpoint,
        nioDeadline: NIODeadline?,
        cancellation: TransportCancellation,
        sessionHeaders: [String: String]
    ) {
        let instant = nioDeadline.map { deadline in
            ContinuousClock.now + .nanoseconds((deadline - NIODeadline.now()).nanoseconds)
        }
        self.init(
            request: request,
            endpoint: endpoint,
            deadline: instant,
            cancellation: cancellation,
            sessionHeaders: sessionHeaders
        )
        if let instant, let nioDeadline {
            fixedDeadline = (instant, nioDeadline)
        }
    }

    /// `deadline` on SwiftNIO's clock: the one the lifecycle fixed, unless `deadline` was moved
    /// since (by a decorator of one's own), in which case it is converted.
    var nioDeadline: NIODeadline? {
        guard let deadline else { return nil }
        if let fixedDeadline, fixedDeadline.instant == deadline {
            return fixedDeadline.nio
        }
        return NIODeadline.now() + TimeAmount(deadline - ContinuousClock.now)
    }
}
