import Foundation
import FuzzSupport
import Moya

/// The event-stream parser on arbitrary bytes cut into arbitrary chunks: it never traps; it
/// gives the same events however the bytes are cut; what it dispatches is well formed (no CR
/// anywhere, no LF in a type or an ID); each event written back in the wire format reads back
/// as itself; and a small size limit only ever throws `MoyaClientError` (`eventTooLarge`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let cuts = (0..<Int(input.byte() % 8)).map { _ in Int(input.byte()) }
    let smallLimit = 1 + Int(input.byte())
    let bytes = input.rest()

    // One chunk.
    var whole = ServerSentEventParser()
    let expected: [ServerSentEvent]
    do {
        expected = try whole.parse(bytes)
    } catch {
        propertyFailed("the default limit was hit by \(bytes.count) bytes")
    }

    // The same bytes, cut where the input says.
    var offsets = cuts.map { min($0 * max(1, bytes.count / 256), bytes.count) }.sorted()
    offsets.append(bytes.count)
    var split = ServerSentEventParser()
    var events: [ServerSentEvent] = []
    var from = 0
    for offset in offsets {
        do {
            events += try split.parse(Array(bytes[from..<offset]))
        } catch {
            propertyFailed("the default limit was hit by a chunk")
        }
        from = offset
    }
    check(events == expected, "cutting at \(offsets) gave \(events) instead of \(expected)")
    check(split.lastEventID == whole.lastEventID, "the last event ID depends on the cuts")
    check(split.reconnectionTime == whole.reconnectionTime, "the reconnection time depends on the cuts")

    for event in expected {
        check(!event.data.unicodeScalars.contains("\r"), "data holds a CR: \(event)")
        check(!event.event.unicodeScalars.contains { $0 == "\r" || $0 == "\n" }, "the type holds a line break")
        check(!event.event.isEmpty, "an event has an empty type")
        if let id = event.id {
            check(!id.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }, "the ID holds \(id.debugDescription)")
        }
        var reader = ServerSentEventParser()
        do {
            let readBack = try reader.parse(Array(event.wireRepresentation.utf8))
            check(readBack == [event], "\(event) was written as \(event.wireRepresentation.debugDescription), read back as \(readBack)")
        } catch {
            propertyFailed("writing \(event) back hit the limit")
        }
    }

    // A small limit throws its own error, never anything else, and never traps.
    var limited = ServerSentEventParser(maximumEventSize: smallLimit)
    do {
        _ = try limited.parse(bytes)
    } catch {
        check(error.code == .eventTooLarge && error.limit == max(1, smallLimit), "the error names the wrong limit")
    }
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver, calling `fuzz` with each input.
@_cdecl("FuzzServerSentEvents_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { data, count in
        fuzz(data.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!, count)
    }
}
