import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFileSystem
import NIOFoundationCompat
import NIOHTTP1

/// How a baseline hands bodies to its caller.
///
/// `raw` keeps AsyncHTTPClient's `ByteBuffer`s; `data` converts every body to and from
/// Foundation `Data` (and does its file I/O with `FileHandle`), which is what a Moya `Response`
/// needs: the difference between the two is the price of the bridge itself.
enum BodyStyle: Sendable {
    case raw
    case data
}

/// The same work as the Moya benchmarks, written directly on AsyncHTTPClient: on its
/// async/await API, and for the callback-API GET benchmarks on its `EventLoopFuture` API.
struct Baseline: Sendable {
    let client: HTTPClient
    let baseURL: URL
    let style: BodyStyle

    private static let timeout = TimeAmount.seconds(60)

    /// `GET /json`, its body collected.
    func getJSON() async throws {
        var request = HTTPClientRequest(url: baseURL.absoluteString + "/json")
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await client.execute(request, timeout: Self.timeout)
        try check(response)
        let body = try await response.body.collect(upTo: 1 << 20)
        try keep(body)
    }

    /// `GET /json` on AsyncHTTPClient's callback API (`execute(request:)`, an
    /// `EventLoopFuture` of the whole response), the baseline of Moya's
    /// `request(_:completion:)`: `completion` runs on `queue`, as Moya's does on its
    /// `callbackQueue`, with the body in the form the style promises.
    func getJSON(completingOn queue: DispatchQueue, _ completion: @escaping @Sendable (Error?) -> Void) {
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(
                url: baseURL.absoluteString + "/json",
                method: .GET,
                headers: ["Accept": "application/json"]
            )
        } catch {
            queue.async { completion(error) }
            return
        }
        client.execute(request: request, deadline: .now() + Self.timeout).whenComplete { result in
            queue.async {
                do {
                    let response = try result.get()
                    guard response.status == .ok else {
                        throw BenchmarkFailure("\(style) baseline: HTTP \(response.status.code)")
                    }
                    try keep(response.body ?? ByteBuffer())
                    completion(nil)
                } catch {
                    completion(error)
                }
            }
        }
    }

    /// `POST /echo` with `json` as the body. `json` is already a `ByteBuffer` for the raw
    /// baseline; the `Data` one converts it, as it would convert a `Data` body it was given.
    func postJSON(_ json: Data, _ jsonBuffer: ByteBuffer) async throws {
        var request = HTTPClientRequest(url: baseURL.absoluteString + "/echo")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json")
        switch style {
        case .raw: request.body = .bytes(jsonBuffer)
        case .data: request.body = .bytes(ByteBuffer(data: json))
        }
        let response = try await client.execute(request, timeout: Self.timeout)
        try check(response)
        let body = try await response.body.collect(upTo: 1 << 20)
        try keep(body)
    }

    /// `GET /download`, written to `destination` chunk by chunk.
    func download(to destination: URL) async throws {
        let request = HTTPClientRequest(url: baseURL.absoluteString + "/download")
        let response = try await client.execute(request, timeout: .hours(1))
        try check(response)
        switch style {
        case .raw:
            try await FileSystem.shared.withFileHandle(
                forWritingAt: FilePath(destination.path),
                options: .newFile(replaceExisting: true)
            ) { file in
                var writer = file.bufferedWriter()
                for try await chunk in response.body {
                    try await writer.write(contentsOf: chunk)
                }
                try await writer.flush()
            }
        case .data:
            guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
                throw BenchmarkFailure("Cannot create \(destination.path)")
            }
            let handle = try Foundation.FileHandle(forWritingTo: destination)
            defer { try? handle.close() }
            for try await chunk in response.body {
                try handle.write(contentsOf: Data(buffer: chunk))
            }
        }
    }

    /// `POST /upload` of a `multipart/form-data` body whose one part is `file`, read in chunks as
    /// the request is sent.
    func uploadPart(file: URL) async throws {
        let boundary = "benchmark.boundary"
        let head = ByteBuffer(string: "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; "
            + "filename=\"\(file.lastPathComponent)\"\r\nContent-Type: application/octet-stream\r\n\r\n")
        let tail = ByteBuffer(string: "\r\n--\(boundary)--\r\n")
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        var request = HTTPClientRequest(url: baseURL.absoluteString + "/upload")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        let length = HTTPClientRequest.Body.Length.known(Int64(head.readableBytes + size + tail.readableBytes))

        switch style {
        case .raw:
            try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(file.path)) { handle in
                let chunks = handle.readChunks(chunkLength: .kibibytes(64))
                request.body = .stream(Framed(head: head, base: chunks, tail: tail), length: length)
                try await send(request)
            }
        case .data:
            let handle = try Foundation.FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            request.body = .stream(Framed(head: head, base: FileHandleChunks(handle: handle), tail: tail), length: length)
            try await send(request)
        }
    }

    private func send(_ request: HTTPClientRequest) async throws {
        let response = try await client.execute(request, timeout: .hours(1))
        try check(response)
        _ = try await response.body.collect(upTo: 1 << 20)
    }

    private func check(_ response: HTTPClientResponse) throws {
        guard response.status == .ok else {
            throw BenchmarkFailure("\(style) baseline: HTTP \(response.status.code)")
        }
    }

    /// Hands the body over in the form the style promises.
    private func keep(_ body: ByteBuffer) throws {
        let count: Int
        switch style {
        case .raw: count = body.readableBytes
        case .data: count = Data(buffer: body).count
        }
        guard count > 0 else { throw BenchmarkFailure("\(style) baseline: empty body") }
    }
}

/// A body made of a head, the elements of `base`, and a tail: a multipart envelope around a
/// file that is read only as the request is sent.
struct Framed<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let head: ByteBuffer
    let base: Base
    let tail: ByteBuffer

    struct AsyncIterator: AsyncIteratorProtocol {
        var head: ByteBuffer?
        var base: Base.AsyncIterator
        var tail: ByteBuffer?

        mutating func next() async throws -> ByteBuffer? {
            if let head {
                self.head = nil
                return head
            }
            if let chunk = try await base.next() {
                return chunk
            }
            defer { tail = nil }
            return tail
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(head: head, base: base.makeAsyncIterator(), tail: tail)
    }
}

/// A file read with Foundation's `FileHandle`, 64 KiB at a time, each chunk converted from
/// `Data` to a `ByteBuffer`.
///
/// - Note: `@unchecked Sendable`: `FileHandle` is not annotated, and the one iterator of the one
///   request body reads it strictly one chunk after another.
struct FileHandleChunks: AsyncSequence, @unchecked Sendable {
    typealias Element = ByteBuffer

    let handle: Foundation.FileHandle

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: Foundation.FileHandle

        mutating func next() async throws -> ByteBuffer? {
            guard let data = try handle.read(upToCount: 64 * 1024), !data.isEmpty else { return nil }
            return ByteBuffer(data: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: handle)
    }
}

/// A benchmark that could not do its work (a server error, a wrong answer): the run reports it
/// instead of measuring something else.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
