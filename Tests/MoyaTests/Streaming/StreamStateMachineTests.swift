import Foundation
import Testing

@testable import Moya

/// The streaming path's rules alone: the chunk channel's back-pressure and termination, and the
/// once-only report. (The idle clock that stops while the reader holds the transfer back is
/// `IdleTimeoutWatch`'s, tested with it.)
@Suite("Streaming state machines")
struct StreamStateMachineTests {
    typealias Channel = ChunkChannel.StateMachine<String, String>

    private func chunk(_ size: Int) -> Data {
        Data(repeating: 7, count: size)
    }

    // MARK: Chunk channel

    @Test func theProducerPausesAtTheHighWatermarkAndResumesAtTheLowOne() {
        var machine = Channel(highWatermark: 100, lowWatermark: 40)
        guard case .produceMore = machine.send(chunk(50)) else {
            Issue.record("paused early")
            return
        }
        guard case .pause = machine.send(chunk(50)) else {
            Issue.record("did not pause at 100 bytes")
            return
        }
        guard case .wait = machine.producerWaits("producer") else {
            Issue.record("did not wait")
            return
        }
        // 50 bytes left: still above the low watermark.
        guard case .chunk(_, nil) = machine.next() else {
            Issue.record("resumed too early")
            return
        }
        guard case .chunk(_, "producer"?) = machine.next() else {
            Issue.record("not resumed at 0 bytes")
            return
        }
    }

    @Test func aProducerOfferingToWaitAfterRoomWasMadeGoesOnAtOnce() {
        var machine = Channel(highWatermark: 10, lowWatermark: 5)
        guard case .pause = machine.send(chunk(10)) else {
            Issue.record("did not pause")
            return
        }
        _ = machine.next()
        guard case .resumeNow = machine.producerWaits("producer") else {
            Issue.record("waited for nothing")
            return
        }
    }

    @Test func aWaitingReaderGetsTheNextChunkDirectly() {
        var machine = Channel(highWatermark: 10, lowWatermark: 5)
        guard case .wait = machine.consumerWaits("reader") else {
            Issue.record("did not wait")
            return
        }
        guard case .deliver("reader", let data) = machine.send(chunk(3)), data.count == 3 else {
            Issue.record("not delivered")
            return
        }
    }

    @Test func theReaderGetsBufferedChunksThenTheEndingWhichTerminatesOnce() {
        var machine = Channel(highWatermark: 100, lowWatermark: 10)
        _ = machine.send(chunk(1))
        let failure = MoyaError.underlying(URLError(.networkConnectionLost), nil)
        // The reader has not read the end yet: nothing terminates.
        let finish = machine.finish(.failed(failure))
        #expect(finish.termination == nil)
        let secondFinish = machine.finish(.finished)
        #expect(secondFinish.consumer == nil)
        guard case .chunk = machine.next() else {
            Issue.record("lost the buffered chunk")
            return
        }
        guard case .end(let error?, .producerEnded(.failed)?) = machine.next() else {
            Issue.record("no error and termination after the chunk")
            return
        }
        #expect(error.errorCode == failure.errorCode)
        guard case .end(nil, nil) = machine.next() else {
            Issue.record("the end was reported twice")
            return
        }
        // The reader leaving after the end changes nothing.
        let left = machine.consumerLeft()
        #expect(left.termination == nil)
    }

    @Test func aReaderLeavingAfterTheProducerEndedReportsHowTheBodyEnded() {
        var machine = Channel(highWatermark: 100, lowWatermark: 10)
        _ = machine.send(chunk(1))
        _ = machine.finish(.finished)
        let leave = machine.consumerLeft()
        guard case .producerEnded(.finished)? = leave.termination else {
            Issue.record("expected the completed body, got \(String(describing: leave.termination))")
            return
        }
    }

    @Test func aWaitingReaderIsResumedWithTheEnding() {
        var machine = Channel(highWatermark: 100, lowWatermark: 10)
        _ = machine.consumerWaits("reader")
        let finish = machine.finish(.finished)
        #expect(finish.consumer?.0 == "reader")
        #expect(finish.consumer?.1 == nil)
        guard case .producerEnded(.finished)? = finish.termination else {
            Issue.record("no termination")
            return
        }
    }

    @Test func theReaderLeavingTerminatesReleasesTheProducerAndDropsLaterChunks() {
        var machine = Channel(highWatermark: 10, lowWatermark: 5)
        _ = machine.send(chunk(10))
        _ = machine.producerWaits("producer")
        let leave = machine.consumerLeft()
        guard case .consumerLeft? = leave.termination else {
            Issue.record("no termination")
            return
        }
        #expect(leave.producer == "producer")
        guard case .drop = machine.send(chunk(1)) else {
            Issue.record("kept a chunk nobody reads")
            return
        }
        let finish = machine.finish(.finished)
        #expect(finish.termination == nil)
        let leftAgain = machine.consumerLeft()
        #expect(leftAgain.termination == nil)
    }

    @Test func aReaderCancelledBetweenReadsGetsTheCancelledErrorFromItsNextRead() {
        var machine = Channel(highWatermark: 10, lowWatermark: 5)
        _ = machine.send(chunk(1))
        _ = machine.consumerLeft()
        guard case .end(let error?, nil) = machine.next() else {
            Issue.record("the read ended quietly")
            return
        }
        #expect(error.isCancellation)
        guard case .end(nil, nil) = machine.next() else {
            Issue.record("cancelled twice")
            return
        }
    }

    @Test func droppingTheStreamUnreadTerminatesButNotWhileAnIteratorReads() {
        var unread = Channel(highWatermark: 10, lowWatermark: 5)
        guard case .consumerLeft? = unread.sequenceDropped().termination else {
            Issue.record("kept going")
            return
        }

        var read = Channel(highWatermark: 10, lowWatermark: 5)
        let first = read.makeIterator()
        let second = read.makeIterator()
        #expect(first)
        #expect(!second)
        let dropped = read.sequenceDropped()
        #expect(dropped.termination == nil)
    }
}
