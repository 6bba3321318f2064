import Dispatch

/// The serial queue the tests' providers call back on.
public let callbackQueue = makeMarkedQueue("reactive-moya-tests")

/// Tells a queue made by `makeMarkedQueue` from any other: on Linux `DispatchQueue.main` and
/// friends are new wrappers at every call, so a queue is recognised by a value set on it.
private let queueName = DispatchSpecificKey<String>()

/// A serial queue that `currentQueueName()` recognises by `name`.
public func makeMarkedQueue(_ name: String) -> DispatchQueue {
    let queue = DispatchQueue(label: name)
    queue.setSpecific(key: queueName, value: name)
    return queue
}

/// The name of the marked queue the caller runs on, if any.
public func currentQueueName() -> String? {
    DispatchQueue.getSpecific(key: queueName)
}

/// Waits until every block already queued on `queue` has run.
public func drain(_ queue: DispatchQueue) async {
    await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
}
