import Foundation

/// A value guarded by a lock, usable from any thread.
final class Synchronized<Value>: @unchecked Sendable {
    // Every access to `value` goes through `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// Records events from any thread, in order.
final class EventLog: Sendable {
    private let events = Synchronized<[String]>([])

    func record(_ event: String) {
        events.update { $0.append(event) }
    }

    var all: [String] {
        events.update { $0 }
    }
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let value = Synchronized(0)

    @discardableResult
    func increment() -> Int {
        value.update { value in
            value += 1
            return value
        }
    }

    var count: Int {
        value.update { $0 }
    }
}
