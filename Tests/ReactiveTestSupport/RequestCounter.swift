import Foundation
import Moya

/// A plugin that counts the requests sent and records the results the provider received,
/// and lets a test wait for them.
///
/// - Note: `@unchecked Sendable` because every stored `var` is read and written under `lock`.
public final class RequestCounter: PluginType, @unchecked Sendable {
    private let lock = NSLock()
    private var sent = 0
    private var results: [Result<Response, MoyaError>] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// A counter that has seen nothing yet.
    public init() {}

    /// How many requests the provider sent.
    public var sentCount: Int { lock.withLock { sent } }

    /// The results the provider received, in order.
    public var receivedResults: [Result<Response, MoyaError>] { lock.withLock { results } }

    /// Counts a request sent.
    public func willSend(_ request: RequestType, target: TargetType) {
        lock.withLock { sent += 1 }
    }

    /// Records a result and wakes the tests waiting for it.
    public func didReceive(_ result: Result<Response, MoyaError>, target: TargetType) {
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            results.append(result)
            let received = results.count
            defer { waiters.removeAll { $0.count <= received } }
            return waiters.filter { $0.count <= received }.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Waits until the provider has received `count` results.
    public func waitForResults(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let received = lock.withLock { () -> Bool in
                if results.count >= count { return true }
                waiters.append((count, continuation))
                return false
            }
            if received { continuation.resume() }
        }
    }
}
