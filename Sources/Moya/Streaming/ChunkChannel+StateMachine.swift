import Foundation
import NIOCore

extension ChunkChannel {
    /// The rules of a response body handed from the transport (the producer) to one consumer,
    /// apart from locks and continuations so that they can be tested alone.
    ///
    /// Back-pressure: the producer may run ahead of the consumer by `highWatermark` bytes; then
    /// it pauses until the consumer has brought the buffer down to `lowWatermark`. Termination
    /// happens once, whichever comes first: the producer ends (the body is complete, or failed),
    /// or the consumer leaves (it was cancelled, broke out of its loop, or dropped the stream
    /// without reading it). `Consumer` and `Producer` are whatever each side waits with.
    struct StateMachine<Consumer, Producer> {
        /// How the body ended, as the consumer learns it after the buffered chunks.
        enum Ending {
            case finished
            case failed(MoyaError)
        }

        /// Why the channel terminated: reported once.
        enum Termination {
            /// The producer ended so, and the consumer read the ending or left after it.
            case producerEnded(Ending)
            /// The consumer left before the producer ended: the transfer must stop.
            case consumerLeft
        }

        /// What the producer does after handing over a chunk.
        enum SendAction {
            /// Send the next chunk when it comes.
            case produceMore
            /// The consumer is waiting: give it the chunk, then produce more.
            case deliver(Consumer, Data)
            /// The buffer is full: call `producerWaits` with something to resume.
            case pause
            /// Nobody will read the chunk: the transfer is being stopped.
            case drop
        }

        /// What the producer does after offering to wait.
        enum ProducerWaitAction {
            /// Room was made meanwhile: go on at once.
            case resumeNow
            case wait
        }

        /// What the consumer does when it asks for the next chunk.
        enum NextAction {
            case chunk(Data, resumeProducer: Producer?)
            /// The body ended: `nil` when it finished cleanly, else the error to throw; with the
            /// termination to report the first time.
            case end(MoyaError?, Termination?)
            /// Nothing is buffered: wait (only returned by `consumerWaits`: see there).
            case wait
        }

        /// What to do once the producer ended.
        struct FinishAction {
            /// A consumer waiting for the next chunk, to resume with the ending.
            var consumer: (Consumer, MoyaError?)?
            var termination: Termination?
        }

        /// What to do once the consumer left.
        struct LeaveAction {
            /// A consumer waiting, to resume with the cancelled error.
            var consumer: Consumer?
            /// A producer waiting for room, to release so that it winds down.
            var producer: Producer?
            var termination: Termination?
        }

        let highWatermark: Int
        let lowWatermark: Int

        private var buffer = CircularBuffer<Data>()
        private var bufferedBytes = 0
        private var waitingConsumer: Consumer?
        private var waitingProducer: Producer?
        private var ending: Ending?
        private var terminated = false
        /// The consumer left, or has read the ending: nothing more is delivered.
        private var consumerDone = false
        /// The consumer left before reading the ending: its next read, racing with its
        /// cancel, must throw the cancelled error rather than end quietly.
        private var leftEarly = false
        private var iteratorMade = false

        init(highWatermark: Int, lowWatermark: Int) {
            self.highWatermark = max(1, highWatermark)
            self.lowWatermark = min(max(0, lowWatermark), self.highWatermark - 1)
        }

        // MARK: Producer

        mutating func send(_ chunk: Data) -> SendAction {
            guard !consumerDone, ending == nil else { return .drop }
            if let consumer = waitingConsumer {
                waitingConsumer = nil
                return .deliver(consumer, chunk)
            }
            buffer.append(chunk)
            bufferedBytes += chunk.count
            return bufferedBytes >= highWatermark ? .pause : .produceMore
        }

        mutating func producerWaits(_ producer: Producer) -> ProducerWaitAction {
            guard !consumerDone, ending == nil, bufferedBytes > lowWatermark else { return .resumeNow }
            waitingProducer = producer
            return .wait
        }

        mutating func finish(_ ending: Ending) -> FinishAction {
            guard self.ending == nil, !consumerDone else { return FinishAction() }
            self.ending = ending
            var action = FinishAction()
            if let consumer = waitingConsumer {
                waitingConsumer = nil
                consumerDone = true
                terminated = true
                action.consumer = (consumer, ending.error)
                action.termination = .producerEnded(ending)
            }
            return action
        }

        // MARK: Consumer

        /// The first iterator reads the body; any later one is refused.
        mutating func makeIterator() -> Bool {
            defer { iteratorMade = true }
            return !iteratorMade
        }

        /// The next chunk if one is buffered, or the ending once all were read; `.wait` otherwise.
        mutating func next() -> NextAction {
            if let chunk = buffer.popFirst() {
                bufferedBytes -= chunk.count
                var resume: Producer?
                if bufferedBytes <= lowWatermark, let producer = waitingProducer {
                    waitingProducer = nil
                    resume = producer
                }
                return .chunk(chunk, resumeProducer: resume)
            }
            if consumerDone {
                defer { leftEarly = false }
                return .end(leftEarly ? .cancelled : nil, nil)
            }
            if let ending {
                consumerDone = true
                terminated = true
                return .end(ending.error, .producerEnded(ending))
            }
            return .wait
        }

        /// `next()`, but waiting with `consumer` when nothing is there yet.
        mutating func consumerWaits(_ consumer: Consumer) -> NextAction {
            let action = next()
            if case .wait = action {
                waitingConsumer = consumer
            }
            return action
        }

        /// The consumer left: cancelled, out of its loop, or the stream was dropped unread.
        mutating func consumerLeft() -> LeaveAction {
            var action = LeaveAction()
            action.consumer = waitingConsumer
            waitingConsumer = nil
            guard !consumerDone else { return action }
            consumerDone = true
            // A consumer waiting now gets the cancelled error with the action; one that was not
            // gets it from its next read.
            leftEarly = action.consumer == nil
            buffer.removeAll()
            bufferedBytes = 0
            action.producer = waitingProducer
            waitingProducer = nil
            if !terminated {
                terminated = true
                action.termination = ending.map { .producerEnded($0) } ?? .consumerLeft
            }
            return action
        }

        /// The stream value was dropped: it ends the transfer only if nobody is reading it.
        mutating func sequenceDropped() -> LeaveAction {
            iteratorMade ? LeaveAction() : consumerLeft()
        }
    }
}

extension ChunkChannel.StateMachine.Ending {
    var error: MoyaError? {
        switch self {
        case .finished:
            return nil
        case .failed(let error):
            return error
        }
    }
}

extension ChunkChannel.StateMachine: Sendable where Consumer: Sendable, Producer: Sendable {}
