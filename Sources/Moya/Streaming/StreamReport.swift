import NIOConcurrencyHelpers

/// Tells plugins, once, that a stream handed to its caller has ended for its reader:
/// `didReceive` with the head and an empty body when the body completed, the transfer's error
/// when it failed, or the cancelled error when the reader left before the transfer ended.
final class StreamReport: Sendable {
    private let machine = NIOLockedValueBox(StateMachine())
    private let report: @Sendable (Result<Response, MoyaError>) -> Void

    init(report: @escaping @Sendable (Result<Response, MoyaError>) -> Void) {
        self.report = report
    }

    func accept(_ head: Response) {
        if let (head, termination) = machine.withLockedValue({ $0.accept(head) }) {
            report(Self.result(head, termination))
        }
    }

    func terminated(_ termination: ChunkChannel.Termination) {
        if let (head, termination) = machine.withLockedValue({ $0.terminated(termination) }) {
            report(Self.result(head, termination))
        }
    }

    func discard() {
        machine.withLockedValue { $0.discard() }
    }

    static func result(_ head: Response, _ termination: ChunkChannel.Termination) -> Result<Response, MoyaError> {
        switch termination {
        case .producerEnded(.finished):
            return .success(head)
        case .producerEnded(.failed(let error)):
            return .failure(error)
        case .consumerLeft:
            return .failure(.cancelled)
        }
    }
}
