import Foundation
import Moya

/// A plugin that counts the requests sent and records the results the provider received,
/// and lets a test wait for them.
///
/// - Note: `@unchecked Sendable` because every stored `var` is read and written under `lock`.
final class RequestCounter: PluginType, @unchecked Sendable {
    private let lock = NSLock()
    private var sent = 0
    private var results: [Result<Response, MoyaError>] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []

    var sentCount: Int { lock.withLock { sent } }
    var receivedResults: [Result<Response, MoyaError>] { lock.withLock { results } }

    func willSend(_ request: RequestType, target: TargetType) {
        lock.withLock { sent += 1 }
    }

    func didReceive(_ result: Result<Response, MoyaError>, target: TargetType) {
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            results.append(result)
            defer { waiters = [] }
            return waiters
        }
        for continuation in ready { continuation.resume() }
    }

    /// Waits until the provider has received a result.
    func waitForResult() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let received = lock.withLock { () -> Bool in
                if !results.isEmpty { return true }
                waiters.append(continuation)
                return false
            }
            if received { continuation.resume() }
        }
    }
}
