import Foundation
import NIOCore
import Testing

@testable import Moya

/// Where a response's bytes go, without files or threads.
@Suite("Download sink state machine")
struct DownloadSinkStateMachineTests {
    typealias Machine = DownloadSink.StateMachine

    private let url = URL(fileURLWithPath: "/tmp/moya-download-test")
    private let writer = FileWriter(handle: FileHandle.nullDevice)

    private func bytes(_ text: String) -> ByteBuffer {
        ByteBuffer(string: text)
    }

    /// The bytes a `.write` action hands out, or `nil` for `.none`.
    private func written(_ action: Machine.ReceiveAction) -> String? {
        switch action {
        case .none: return nil
        case .write(let block): return String(buffer: block.bytes)
        }
    }

    @Test func withoutAFileTheBodyStaysInMemory() {
        var machine = Machine(blockSize: 4)
        #expect(written(machine.received(bytes("hello "))) == nil)
        #expect(written(machine.received(bytes("world"))) == nil)
        let finished = machine.finished()
        #expect(String(buffer: finished.body) == "hello world")
        #expect(finished.download == nil)
        #expect(machine.temporaryFile == nil)
    }

    @Test func anAdoptedFileGetsWholeBlocksAndTheRestAtTheEnd() {
        var machine = Machine(blockSize: 4)
        #expect(machine.fileCreated(url: url, writer: writer) == .adopt)
        #expect(written(machine.received(bytes("ab"))) == nil)
        #expect(written(machine.received(bytes("cde"))) == "abcde")
        #expect(written(machine.received(bytes("f"))) == nil)
        let finished = machine.finished()
        #expect(finished.body.readableBytes == 0)
        #expect(finished.download?.url == url)
        #expect(finished.download.map { String(buffer: $0.last.bytes) } == "f")
    }

    @Test func aFileCreatedAfterTheTransferFailedIsDiscarded() {
        var machine = Machine(blockSize: 4)
        guard case .none = machine.failed() else {
            Issue.record("nothing was open to close")
            return
        }
        #expect(machine.fileCreated(url: url, writer: writer) == .discard)
        #expect(machine.temporaryFile == nil)
    }

    @Test func aFailureClosesTheFileAndKeepsItsNameForRemoval() {
        var machine = Machine(blockSize: 4)
        _ = machine.fileCreated(url: url, writer: writer)
        guard case .close = machine.failed() else {
            Issue.record("the open file must be closed")
            return
        }
        #expect(machine.temporaryFile == url)
        guard case .none = machine.failed() else {
            Issue.record("a second failure closes nothing")
            return
        }
        #expect(written(machine.received(bytes("late bytes"))) == nil)
    }
}
