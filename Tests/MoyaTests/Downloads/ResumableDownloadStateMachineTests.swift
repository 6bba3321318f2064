import Foundation
import Testing

@testable import Moya

/// The rules of a resumable download, without I/O: what is asked for, and what each head means.
@Suite("Resumable download state machine")
struct ResumableDownloadStateMachineTests {
    typealias Machine = ResumableDownload.StateMachine
    private let url = "https://example.com/file"

    private func record(bytes: Int64?, complete: Int64? = 1000, validator: String = "\"v1\"") -> ResumeRecord {
        ResumeRecord(url: url, validator: validator, completeLength: complete, bytesWritten: bytes)
    }

    @Test func aFirstDownloadAsksForTheWholeResource() {
        let machine = Machine(url: url, record: nil, fileSize: nil)
        #expect(machine.headers.isEmpty)
        #expect(machine.bytesKept == 0)
    }

    @Test func aKeptPartialAsksForTheRestWithItsValidator() {
        let machine = Machine(url: url, record: record(bytes: 400), fileSize: 400)
        #expect(machine.headers == ["Range": "bytes=400-", "If-Range": "\"v1\""])
    }

    @Test func aPartialShorterThanItsSidecarSaysStartsFromZero() {
        let machine = Machine(url: url, record: record(bytes: 400), fileSize: 120)
        #expect(machine.headers.isEmpty)
        #expect(machine.bytesKept == 0)
    }

    @Test func bytesWrittenAfterTheSidecarAreCutAway() {
        let machine = Machine(url: url, record: record(bytes: 400), fileSize: 700)
        #expect(machine.bytesKept == 400)
    }

    @Test func aSidecarWrittenWhileWritingTrustsTheFilesLength() {
        let machine = Machine(url: url, record: record(bytes: nil), fileSize: 650)
        #expect(machine.bytesKept == 650)
    }

    @Test func aSidecarOfAnotherURLIsNotUsed() {
        let machine = Machine(url: url + "?v=2", record: record(bytes: 400), fileSize: 400)
        #expect(machine.headers.isEmpty)
    }

    @Test func aMatchingRangeIsAppendedAfterTheKeptBytes() {
        var machine = Machine(url: url, record: record(bytes: 400), fileSize: 400)
        let decision = machine.received(
            status: 206,
            contentRange: "bytes 400-999/1000",
            etag: "\"v1\"",
            lastModified: nil,
            contentLength: 600
        )
        #expect(decision == .write(keeping: 400))
        #expect(machine.expectedLength == 1000)
        #expect(machine.recordWhileWriting?.bytesWritten == nil)
    }

    @Test(arguments: [
        "bytes 300-999/1000",  // starts before the kept bytes
        "bytes 400-999/2000",  // another length: another resource
        "items 400-999/1000",
        "bytes */1000",
    ])
    func aRangeThatDoesNotAddUpStartsAgainOnce(contentRange: String) {
        var machine = Machine(url: url, record: record(bytes: 400), fileSize: 400)
        let first = machine.received(
            status: 206,
            contentRange: contentRange,
            etag: nil,
            lastModified: nil,
            contentLength: nil
        )
        #expect(first == .startAgain)
        #expect(machine.headers.isEmpty)
        let second = machine.received(
            status: 206,
            contentRange: contentRange,
            etag: nil,
            lastModified: nil,
            contentLength: nil
        )
        #expect(second == .refuse, "a second confused answer in the same attempt must not loop")
    }

    @Test func aRangeOfAnotherValidatorStartsAgain() {
        var machine = Machine(url: url, record: record(bytes: 400), fileSize: 400)
        let decision = machine.received(
            status: 206,
            contentRange: "bytes 400-999/1000",
            etag: "\"v2\"",
            lastModified: nil,
            contentLength: 600
        )
        #expect(decision == .startAgain)
    }

    @Test func aWholeResponseReplacesThePartialAndRecordsItsValidator() {
        var machine = Machine(url: url, record: record(bytes: 400), fileSize: 400)
        let decision = machine.received(
            status: 200,
            contentRange: nil,
            etag: "\"v2\"",
            lastModified: nil,
            contentLength: 1200
        )
        #expect(decision == .write(keeping: 0))
        #expect(machine.recordWhileWriting?.validator == "\"v2\"")
        #expect(machine.recordWhileWriting?.completeLength == 1200)
        #expect(machine.expectedLength == 1200)
    }

    @Test func aWeakETagFallsBackToLastModifiedAndNeitherMeansNoResume() {
        #expect(ResumeRecord.validator(etag: "W/\"x\"", lastModified: "Tue, 01 Dec 2026 10:00:00 GMT") != nil)
        #expect(ResumeRecord.validator(etag: "W/\"x\"", lastModified: nil) == nil)
        var machine = Machine(url: url, record: nil, fileSize: nil)
        _ = machine.received(status: 200, contentRange: nil, etag: "W/\"x\"", lastModified: nil, contentLength: 10)
        machine.wrote(length: 5)
        #expect(machine.recordWhenStopped == nil, "bytes without a strong validator cannot be resumed")
    }

    @Test func unsatisfiableWithACompleteFileCompletes() {
        var machine = Machine(url: url, record: record(bytes: 1000), fileSize: 1000)
        let decision = machine.received(
            status: 416,
            contentRange: "bytes */1000",
            etag: nil,
            lastModified: nil,
            contentLength: nil
        )
        #expect(decision == .complete)
    }

    @Test func unsatisfiableWithAnIncompleteFileStartsAgain() {
        var machine = Machine(url: url, record: record(bytes: 400), fileSize: 400)
        let decision = machine.received(
            status: 416,
            contentRange: "bytes */300",
            etag: nil,
            lastModified: nil,
            contentLength: nil
        )
        #expect(decision == .startAgain)
    }

    @Test(arguments: [404, 500, 304])
    func anotherStatusIsRefusedAndKeepsThePartial(status: Int) {
        var machine = Machine(url: url, record: record(bytes: 400), fileSize: 400)
        let decision = machine.received(
            status: status,
            contentRange: nil,
            etag: nil,
            lastModified: nil,
            contentLength: nil
        )
        #expect(decision == .refuse)
        #expect(machine.recordWhenStopped?.bytesWritten == 400)
    }

    @Test func aStoppedTransferRecordsTheBytesOnDisk() {
        var machine = Machine(url: url, record: record(bytes: 400), fileSize: 400)
        _ = machine.received(
            status: 206,
            contentRange: "bytes 400-999/1000",
            etag: nil,
            lastModified: nil,
            contentLength: 600
        )
        machine.wrote(length: 730)
        #expect(machine.recordWhenStopped?.bytesWritten == 730)
        #expect(machine.ended == .short)
        machine.wrote(length: 1000)
        #expect(machine.ended == .complete)
        machine.wrote(length: 1001)
        #expect(machine.ended == .long)
    }
}

/// `Content-Range` as a resumed download reads it.
@Suite("Content-Range")
struct ContentRangeTests {
    @Test func aSatisfiedRangeWithItsLengthParses() {
        #expect(ContentRange("bytes 400-999/1000") == ContentRange(first: 400, last: 999, completeLength: 1000))
        #expect(ContentRange(" bytes 0-0/* ")?.completeLength == nil)
        #expect(ContentRange("bytes 0-9/10")?.length == 10)
    }

    @Test(arguments: [
        "bytes */1000", "bytes 9-1/10", "bytes 0-10/10", "bytes -1-5/10", "bytes 1-5", "bytes a-5/10",
        "bytes 0-99999999999999999999/*", "", "bytes 1-5/10/11",
    ])
    func anythingElseDoesNotParse(value: String) {
        #expect(ContentRange(value) == nil)
    }
}
