import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import NIOCore

/// Counts the requests a server answered, per path.
actor HitCounter {
    private var hits: [String: Int] = [:]

    func record(_ path: String) {
        hits[path, default: 0] += 1
    }

    func count(_ path: String) -> Int {
        hits[path, default: 0]
    }
}

/// The secrets the server and the requests carry, to look for in fixture files.
enum Secrets {
    static let authorization = "Bearer header-secret-111"
    static let customHeader = "custom-secret-222"
    static let apiKey = "query-secret-333"
    static let password = "body-secret-444"
    static let cookie = "cookie-secret-456"
    static let serverToken = "server-token-789"

    static let all = [authorization, customHeader, apiKey, password, cookie, serverToken]
}

/// The server behind `Catalog`.
enum CatalogServer {
    static let binaryBody: [UInt8] = [0xFF, 0xFE, 0x00, 0x01, 0x80, 0x7F]
    static let reportBody = "quarterly report\nline two\n"

    static func start(hits: HitCounter) async throws -> TestServer {
        try await TestServer.start { router in
            router.get("items") { request, _ -> Response in
                await hits.record("/items")
                let page = request.uri.queryParameters.get("page") ?? "?"
                var headers = HTTPFields()
                headers[.contentType] = "application/json"
                headers[.setCookie] = "session=\(Secrets.cookie); Path=/"
                headers[HTTPField.Name("X-Total")!] = "2"
                let body = #"{"page":\#(page),"names":["first","second"]}"#
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
            }
            router.post("items") { request, _ -> Response in
                await hits.record("/items POST")
                _ = try await request.body.collect(upTo: 1 << 20)
                var headers = HTTPFields()
                headers[.contentType] = "application/json"
                let body = #"{"id":7,"token":"\#(Secrets.serverToken)"}"#
                return Response(status: .created, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
            }
            router.get("binary") { _, _ -> Response in
                await hits.record("/binary")
                var headers = HTTPFields()
                headers[.contentType] = "application/octet-stream"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: binaryBody)))
            }
            router.get("missing") { _, _ -> Response in
                await hits.record("/missing")
                return Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: "no such thing")))
            }
            router.get("files/report") { _, _ -> Response in
                await hits.record("/files/report")
                var headers = HTTPFields()
                headers[.contentType] = "text/plain"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: reportBody)))
            }
        }
    }
}
