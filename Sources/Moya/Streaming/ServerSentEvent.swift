import Foundation

/// One event of a `text/event-stream` response, as the WHATWG HTML standard's event-stream
/// format defines it (the format `EventSource` reads).
///
/// `MoyaProvider.events(_:reconnect:)` delivers these as they arrive:
///
/// ```swift
/// for try await event in provider.events(.notifications) where event.event == "update" {
///     print(event.data)
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable {
    /// The event's type: the value of its `event` field, `"message"` when it has none.
    public var event: String

    /// The event's data: its `data` fields' values joined with line feeds.
    public var data: String

    /// The stream's last event ID when the event was dispatched: the value of the latest `id`
    /// field, in this event or an earlier one; `nil` when none was set, or it was set empty.
    ///
    /// A reconnecting stream sends it back in the `Last-Event-ID` header.
    public var id: String?

    /// The reconnection time, in milliseconds, that a `retry` field in this event set; `nil`
    /// when the event had none.
    public var retry: Int?

    /// Creates an event.
    public init(event: String = "message", data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// Decodes the event's data as JSON.
    ///
    /// - Throws: `MoyaError.objectMapping`, carrying the decoding error and a `Response`
    ///   whose data is the event's data.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws(MoyaError) -> T
    {
        let bytes = Data(data.utf8)
        do {
            return try decoder.decode(type, from: bytes)
        } catch {
            throw MoyaError.objectMapping(error, Response(statusCode: 200, data: bytes))
        }
    }

    /// The event as a server writes it: its fields, one per line, then an empty line.
    ///
    /// Reading it back gives the same event, with two exceptions the format imposes: an event
    /// with a carriage return in its data reads back with a line feed there, and an `id`
    /// holding a line break or a NUL cannot be written (it is left out).
    public var wireRepresentation: String {
        var text = ""
        if event != "message" {
            text += "event: \(Self.singleLine(event))\n"
        }
        // Only CR and LF end a line in the format (`Character.isNewline` also takes form feeds
        // and other separators, which an ID may hold).
        if let id, !id.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) {
            text += "id: \(id)\n"
        }
        if let retry, retry >= 0 {
            text += "retry: \(retry)\n"
        }
        // Every line of the data becomes a `data` field; CR and CRLF end lines as LF does.
        var lines: [Substring] = []
        var current = data.unicodeScalars.startIndex
        var start = current
        let scalars = data.unicodeScalars
        while current < scalars.endIndex {
            let scalar = scalars[current]
            if scalar == "\n" || scalar == "\r" {
                lines.append(Substring(scalars[start..<current]))
                var next = scalars.index(after: current)
                if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" {
                    next = scalars.index(after: next)
                }
                current = next
                start = next
            } else {
                current = scalars.index(after: current)
            }
        }
        lines.append(Substring(scalars[start..<scalars.endIndex]))
        for line in lines {
            text += "data: \(line)\n"
        }
        return text + "\n"
    }

    /// A field value on one line: line breaks would end the field early.
    private static func singleLine(_ value: String) -> String {
        String(value.unicodeScalars.filter { $0 != "\n" && $0 != "\r" }.map(Character.init))
    }
}
