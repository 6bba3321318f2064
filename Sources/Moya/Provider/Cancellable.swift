/// Protocol to define the opaque type returned from a request.
///
/// Unlike Moya's, it refines `Sendable`: a token is cancelled from other threads by nature (a
/// task's cancellation handler, another queue), and Swift 6 code must be able to do so. A type
/// of your own that conforms keeps its state behind a lock.
public protocol Cancellable: Sendable {
    /// A Boolean value stating whether a request is cancelled.
    var isCancelled: Bool { get }

    /// Cancels the represented request.
    func cancel()
}
