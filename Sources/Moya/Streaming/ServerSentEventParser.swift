import Foundation

/// Reads the `text/event-stream` format incrementally: feed it the bytes of a response as they
/// arrive, in chunks of any size, and it returns the events each chunk completes.
///
/// It follows the WHATWG HTML standard's parsing rules: a leading byte order mark is skipped;
/// lines end with CR, LF or CRLF (even split between two chunks); a line starting with a colon
/// is a comment; `event`, `data` (joined with line feeds), `id` (ignored when it holds a NUL)
/// and `retry` (only ASCII digits) fields; unknown fields are ignored; an empty line dispatches
/// the event, unless it has no data. Text is UTF-8: a character split between chunks is
/// decoded whole, and invalid bytes become U+FFFD.
///
/// Memory stays bounded: an event or line larger than `maximumEventSize` bytes throws
/// `MoyaClientError` `eventTooLarge` rather than growing without end.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for try await chunk in streamed.chunks {
///     for event in try parser.parse(chunk) { handle(event) }
/// }
/// ```
public struct ServerSentEventParser: Sendable {
    /// The largest event (its pending line and data together) a parser accepts by default: 8 MiB.
    public static let defaultMaximumEventSize = 8 << 20

    private enum ByteOrderMark {
        /// The stream has started with this many bytes of a byte order mark.
        case checking(matched: Int)
        case done
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D
    private static let colon: UInt8 = 0x3A
    private static let space: UInt8 = 0x20

    /// The largest event, in bytes, this parser accepts.
    public let maximumEventSize: Int

    /// The last event ID: the `id` in effect when the latest event was dispatched; empty when
    /// none was set. A reconnecting client sends it as `Last-Event-ID`.
    public private(set) var lastEventID = ""

    /// The reconnection time, in milliseconds, the latest `retry` field set; `nil` when none did.
    public private(set) var reconnectionTime: Int?

    private var byteOrderMark = ByteOrderMark.checking(matched: 0)
    /// The start of a line whose end has not arrived yet.
    private var pendingLine: [UInt8] = []
    /// The previous chunk ended with CR: an LF starting the next one belongs to that line end.
    private var skipsLineFeed = false
    private var dataBuffer: [UInt8] = []
    private var eventTypeBuffer = ""
    private var lastEventIDBuffer = ""
    private var retryInEvent: Int?

    /// Creates a parser for a new stream.
    ///
    /// - Parameters:
    ///   - lastEventID: The last event ID of an earlier connection to the same stream, kept
    ///     until the new stream dispatches its first event.
    ///   - maximumEventSize: The largest event, in bytes, to accept.
    public init(lastEventID: String = "", maximumEventSize: Int = Self.defaultMaximumEventSize) {
        self.lastEventID = lastEventID
        self.maximumEventSize = max(1, maximumEventSize)
    }

    /// Reads the next bytes of the stream, and returns the events they complete, in order.
    ///
    /// - Throws: `MoyaClientError` (`eventTooLarge`) when an event grows beyond `maximumEventSize`. The parser
    ///   should not be used after that.
    public mutating func parse(_ chunk: Data) throws(MoyaClientError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        // `withUnsafeBytes` rethrows untyped errors: the typed one travels in a `Result`.
        let outcome = chunk.withUnsafeBytes { bytes in
            Result { () throws(MoyaClientError) in try consume(bytes, into: &events) }
        }
        try outcome.get()
        return events
    }

    /// Reads the next bytes of the stream, and returns the events they complete, in order.
    public mutating func parse(_ chunk: [UInt8]) throws(MoyaClientError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        // `withUnsafeBytes` rethrows untyped errors: the typed one travels in a `Result`.
        let outcome = chunk.withUnsafeBytes { bytes in
            Result { () throws(MoyaClientError) in try consume(bytes, into: &events) }
        }
        try outcome.get()
        return events
    }

    /// The stream ended: an event without its final empty line is discarded, as the standard
    /// says, and the parser is ready for a new stream (a reconnection), keeping `lastEventID`
    /// and `reconnectionTime`.
    public mutating func finish() {
        byteOrderMark = .checking(matched: 0)
        pendingLine.removeAll()
        skipsLineFeed = false
        dataBuffer.removeAll()
        eventTypeBuffer = ""
        // The standard gives every stream its own buffer, starting empty: the first event of a
        // new connection sets the last event ID, to its own `id` or to none.
        lastEventIDBuffer = ""
        retryInEvent = nil
    }

    /// Reads `bytes`, appending completed events to `events`.
    mutating func consume(_ bytes: UnsafeRawBufferPointer, into events: inout [ServerSentEvent]) throws(MoyaClientError)
    {
        guard case .checking(var matched) = byteOrderMark else {
            try consumeLines(bytes, into: &events)
            return
        }
        var index = 0
        while index < bytes.count, matched < 3, bytes[index] == Self.byteOrderMark[matched] {
            matched += 1
            index += 1
        }
        if matched < 3, index == bytes.count {
            // Every byte so far may still be the start of a byte order mark.
            byteOrderMark = .checking(matched: matched)
            return
        }
        byteOrderMark = .done
        if matched < 3, matched > 0 {
            // Not a byte order mark after all: its first bytes were text.
            let outcome = Self.byteOrderMark[0..<matched].withUnsafeBytes { prefix in
                Result { () throws(MoyaClientError) in try consumeLines(prefix, into: &events) }
            }
            try outcome.get()
        }
        try consumeLines(UnsafeRawBufferPointer(rebasing: bytes[index...]), into: &events)
    }

    private mutating func consumeLines(
        _ bytes: UnsafeRawBufferPointer,
        into events: inout [ServerSentEvent]
    ) throws(MoyaClientError) {
        var index = 0
        if skipsLineFeed, !bytes.isEmpty {
            skipsLineFeed = false
            if bytes[0] == Self.lineFeed {
                index = 1
            }
        }
        var lineStart = index
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == Self.lineFeed || byte == Self.carriageReturn else {
                index += 1
                continue
            }
            let line = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<index])
            if pendingLine.isEmpty {
                try process(line: line, into: &events)
            } else {
                pendingLine.append(contentsOf: line)
                var whole: [UInt8] = []
                swap(&whole, &pendingLine)
                let outcome = whole.withUnsafeBytes { whole in
                    Result { () throws(MoyaClientError) in try process(line: whole, into: &events) }
                }
                try outcome.get()
                whole.removeAll(keepingCapacity: true)
                swap(&whole, &pendingLine)
            }
            index += 1
            if byte == Self.carriageReturn {
                if index == bytes.count {
                    skipsLineFeed = true
                } else if bytes[index] == Self.lineFeed {
                    index += 1
                }
            }
            lineStart = index
        }
        if lineStart < bytes.count {
            pendingLine.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[lineStart...]))
            try checkSize()
        }
    }

    private func checkSize() throws(MoyaClientError) {
        if pendingLine.count + dataBuffer.count > maximumEventSize {
            throw MoyaClientError.eventTooLarge(limit: maximumEventSize)
        }
    }

    private mutating func process(
        line: UnsafeRawBufferPointer,
        into events: inout [ServerSentEvent]
    ) throws(MoyaClientError) {
        guard let first = line.first else {
            dispatch(into: &events)
            return
        }
        if first == Self.colon {
            return
        }
        let name: UnsafeRawBufferPointer
        var value: UnsafeRawBufferPointer
        if let colon = line.firstIndex(of: Self.colon) {
            name = UnsafeRawBufferPointer(rebasing: line[..<colon])
            value = UnsafeRawBufferPointer(rebasing: line[(colon + 1)...])
            if value.first == Self.space {
                value = UnsafeRawBufferPointer(rebasing: value[1...])
            }
        } else {
            name = line
            value = UnsafeRawBufferPointer(rebasing: line[line.endIndex...])
        }
        switch FieldName(name) {
        case .data:
            dataBuffer.append(contentsOf: value)
            dataBuffer.append(Self.lineFeed)
            try checkSize()
        case .event:
            eventTypeBuffer = String(decoding: value, as: UTF8.self)
        case .id:
            if !value.contains(0) {
                lastEventIDBuffer = String(decoding: value, as: UTF8.self)
            }
        case .retry:
            if let milliseconds = Self.digits(value) {
                reconnectionTime = milliseconds
                retryInEvent = milliseconds
            }
        case .other:
            break
        }
    }

    /// The value of a `retry` field made of ASCII digits only (saturating at `Int.max`).
    private static func digits(_ value: UnsafeRawBufferPointer) -> Int? {
        guard !value.isEmpty else { return nil }
        var result = 0
        for byte in value {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times, overflowTimes) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int(byte - 0x30))
            result = overflowTimes || overflowSum ? Int.max : sum
        }
        return result
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        lastEventID = lastEventIDBuffer
        defer {
            dataBuffer.removeAll(keepingCapacity: dataBuffer.capacity <= 64 << 10)
            eventTypeBuffer = ""
            retryInEvent = nil
        }
        guard !dataBuffer.isEmpty else { return }
        dataBuffer.removeLast()
        events.append(
            ServerSentEvent(
                event: eventTypeBuffer.isEmpty ? "message" : eventTypeBuffer,
                data: String(decoding: dataBuffer, as: UTF8.self),
                id: lastEventID.isEmpty ? nil : lastEventID,
                retry: retryInEvent
            )
        )
    }
}

/// The fields the format knows, recognised from their bytes without building a string.
private enum FieldName {
    case data, event, id, retry, other

    init(_ bytes: UnsafeRawBufferPointer) {
        switch bytes.count {
        case 2 where bytes.elementsEqual("id".utf8):
            self = .id
        case 4 where bytes.elementsEqual("data".utf8):
            self = .data
        case 5 where bytes.elementsEqual("event".utf8):
            self = .event
        case 5 where bytes.elementsEqual("retry".utf8):
            self = .retry
        default:
            self = .other
        }
    }
}
