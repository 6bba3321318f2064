import Foundation

/// Controls how stub responses are returned.
public enum StubBehavior: Equatable, Sendable {
    /// Do not stub.
    case never

    /// Return a response immediately (still asynchronously: see `MoyaProvider`).
    case immediate

    /// Return a response after a delay.
    case delayed(seconds: TimeInterval)
}
