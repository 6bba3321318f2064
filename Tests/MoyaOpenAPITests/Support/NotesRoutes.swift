#if OpenAPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// Counts calls from any thread.
final class Counter: Sendable {
    private let value = NIOLockedValueBox(0)

    @discardableResult
    func increment() -> Int {
        value.withLockedValue { value in
            value += 1
            return value
        }
    }

    var count: Int { value.withLockedValue { $0 } }
}

/// What the server saw of the last request to a route.
final class SeenRequests: Sendable {
    private let seen = NIOLockedValueBox<[HTTPFields]>([])

    func record(_ fields: HTTPFields) {
        seen.withLockedValue { $0.append(fields) }
    }

    var all: [HTTPFields] { seen.withLockedValue { $0 } }
}

/// The routes of `openapi.yaml`, served as a real implementation of the document would.
enum NotesRoutes {
    /// `GET /greetings/{name}?language=`: a greeting in the language asked for, with
    /// `Cache-Control` when given, counted by `hits`.
    static func greetings(
        _ router: Router<BasicRequestContext>,
        hits: Counter = Counter(),
        cacheControl: String? = nil
    ) {
        router.get("greetings/:name") { request, context -> Response in
            hits.increment()
            // The router hands the segment over as it came, percent-encoded.
            let name = context.parameters.get("name").flatMap { $0.removingPercentEncoding } ?? "?"
            let language = request.uri.queryParameters.get("language") ?? "en"
            let word = language == "fr" ? "Bonjour" : "Hello"
            var headers: HTTPFields = [.contentType: "application/json"]
            if let cacheControl {
                headers[.cacheControl] = cacheControl
            }
            return json(["message": "\(word), \(name)!"], headers: headers)
        }
    }

    /// `GET /greetings/{name}` answering `503` to the first `failures` requests.
    static func busyGreetings(_ router: Router<BasicRequestContext>, failures: Int, hits: Counter) {
        router.get("greetings/:name") { _, context -> Response in
            guard hits.increment() > failures else {
                return Response(status: .serviceUnavailable)
            }
            return json(["message": "Hello, \(context.parameters.get("name") ?? "?")!"])
        }
    }

    /// `POST /notes`: echoes the note with an ID and the text's length.
    static func notes(_ router: Router<BasicRequestContext>, seen: SeenRequests = SeenRequests()) {
        router.post("notes") { request, _ -> Response in
            seen.record(request.headers)
            let body = try await request.body.collect(upTo: 1 << 20)
            let note = try JSONDecoder().decode([String: String].self, from: Data(buffer: body))
            let text = note["text"] ?? ""
            let reply: [String: Any] = ["id": 7, "title": note["title"] ?? "", "length": text.count]
            return Response(
                status: .created,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(data: try JSONSerialization.data(withJSONObject: reply)))
            )
        }
    }

    /// `GET /me`: the profile for `Bearer <valid>`, `401` otherwise, counted by `rejections`.
    static func profile(_ router: Router<BasicRequestContext>, valid: String, rejections: Counter) {
        router.get("me") { request, _ -> Response in
            guard request.headers[.authorization] == "Bearer \(valid)" else {
                rejections.increment()
                return Response(status: .unauthorized)
            }
            return json(["name": "Ada (\(valid))"])
        }
    }

    /// `PUT /photos/{id}` and `POST /attachments`: the size and checksum of the body received,
    /// and the `Content-Length` it came with in `parts` (`none` when it was chunked), or for a
    /// multipart body the names of its parts.
    static func uploads(_ router: Router<BasicRequestContext>) {
        router.put("photos/:id") { request, _ -> Response in
            let length = request.headers[.contentLength] ?? "none"
            var bytes = 0
            var checksum = Checksum()
            for try await buffer in request.body {
                bytes += buffer.readableBytes
                checksum.add(buffer.readableBytesView)
            }
            return receipt(bytes: bytes, checksum: checksum.value, parts: ["content-length: \(length)"])
        }
        router.post("attachments") { request, _ -> Response in
            let body = Data(buffer: try await request.body.collect(upTo: 16 << 20))
            let text = String(decoding: body, as: UTF8.self)
            // The part names, in order: the `name` parameter of each part's disposition.
            let names = text.components(separatedBy: "\r\n")
                .filter { $0.lowercased().hasPrefix("content-disposition:") }
                .compactMap { line in
                    line.split(separator: ";")
                        .map { $0.trimmingCharacters(in: .whitespaces) }
                        .first { $0.hasPrefix("name=\"") }
                        .map { String($0.dropFirst(6).dropLast()) }
                }
            var checksum = Checksum()
            checksum.add(body)
            return receipt(bytes: body.count, checksum: checksum.value, parts: names)
        }
    }

    /// `GET /blobs/{size}`: `size` bytes (`0x5A` repeated), in 64 KiB writes, with their length.
    static func blobs(_ router: Router<BasicRequestContext>) {
        router.get("blobs/:size") { _, context -> Response in
            let size = Int(context.parameters.get("size") ?? "") ?? 0
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream", .contentLength: String(size)],
                body: ResponseBody { writer in
                    let chunk = ByteBuffer(repeating: 0x5A, count: 64 << 10)
                    var left = size
                    while left > 0 {
                        let count = min(left, chunk.readableBytes)
                        try await writer.write(chunk.getSlice(at: 0, length: count) ?? chunk)
                        left -= count
                    }
                    try await writer.finish(nil)
                }
            )
        }
    }

    /// `GET /events`: `count` events whose data is `{"number": n}`.
    static func events(_ router: Router<BasicRequestContext>, count: Int) {
        router.get("events") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "text/event-stream"],
                body: ResponseBody { writer in
                    for number in 1...count {
                        try await writer.write(ByteBuffer(string: "event: tick\ndata: {\"number\": \(number)}\n\n"))
                    }
                    try await writer.finish(nil)
                }
            )
        }
    }

    private static func receipt(bytes: Int, checksum: String, parts: [String]) -> Response {
        let object: [String: Any] = ["bytes": bytes, "checksum": checksum, "parts": parts]
        return Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: ResponseBody(
                byteBuffer: ByteBuffer(data: (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
            )
        )
    }

    private static func json(
        _ object: [String: String],
        headers: HTTPFields = [.contentType: "application/json"]
    )
        -> Response
    {
        Response(
            status: .ok,
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(data: (try? JSONEncoder().encode(object)) ?? Data()))
        )
    }
}

/// 64-bit FNV-1a over bytes, so that client and server can compare what was sent.
struct Checksum {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            state ^= UInt64(byte)
            state = state &* 0x0000_0100_0000_01b3
        }
    }

    var value: String { String(state, radix: 16) }
}
#endif
