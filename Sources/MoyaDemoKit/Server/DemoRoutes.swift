import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The embedded server's routes: GitHub's `/zen` and `/users`, and the ones the later steps need.
enum DemoRoutes {
    /// How fast the server streams a download: 16 MiB a second, so that the default 32 MiB
    /// take two seconds, long enough to watch the progress bar.
    static let downloadBytesPerSecond = 16.0 * 1_048_576

    /// The largest download the server streams, so a typo in `bytes` cannot fill a disk.
    static let maximumDownloadBytes = 512 * 1024 * 1024
    /// The largest upload the server reads.
    static let maximumUploadBytes = 64 * 1024 * 1024

    static func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        addGitHubRoutes(to: router)
        addTransferRoutes(to: router)
        addFlakyRoute(to: router, counter: FlakyCounter())
        addTokenRoutes(to: router)
        ChatRoute.add(to: router)
        return router
    }

    private static func addGitHubRoutes(to router: Router<BasicRequestContext>) {
        router.get("zen") { _, _ in
            "Half measures are as bad as nothing at all."
        }
        router.get("users/:name") { _, context -> Response in
            let name = context.parameters.get("name") ?? "unknown"
            return try json(UserPayload(login: name, id: stableID(for: name)))
        }
        router.get("users/:name/repos") { request, _ -> Response in
            let sort = request.uri.queryParameters.get("sort") ?? "none"
            return try json([RepositoryPayload(name: "moya"), RepositoryPayload(name: "sorted-by-\(sort)")])
        }
        router.get("user") { request, _ -> Response in
            guard request.headers[.authorization] == "Bearer \(DemoConfiguration.accessToken)" else {
                return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
            }
            return try json(UserPayload(login: "me", id: 1))
        }
    }

    private static func addTransferRoutes(to router: Router<BasicRequestContext>) {
        router.post("uploads") { request, _ -> Response in
            guard let contentType = request.headers[.contentType],
                let boundary = MultipartFieldNames.boundary(inContentType: contentType)
            else {
                return Response(status: .badRequest)
            }
            var body = Data()
            for try await chunk in request.body {
                body.append(contentsOf: chunk.readableBytesView)
                guard body.count <= maximumUploadBytes else { return Response(status: .contentTooLarge) }
            }
            let receipt = UploadReceipt(
                bytes: body.count,
                parts: MultipartFieldNames.names(in: body, boundary: boundary)
            )
            return try json(receipt)
        }
        router.get("downloads/large") { request, _ -> Response in
            let bytes = request.uri.queryParameters.get("bytes", as: Int.self) ?? 32 * 1024 * 1024
            guard (0...maximumDownloadBytes).contains(bytes) else { return Response(status: .badRequest) }
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream", .contentLength: "\(bytes)"],
                body: ResponseBody(contentLength: bytes) { writer in
                    // Streamed in chunks: the server never holds the whole file either. Paced, so
                    // that the demo's progress bar can be seen moving over loopback.
                    let chunk = ByteBuffer(repeating: UInt8(ascii: "m"), count: 64 * 1024)
                    let clock = ContinuousClock()
                    let start = clock.now
                    var sent = 0
                    while sent < bytes {
                        let slice = chunk.getSlice(at: 0, length: min(bytes - sent, chunk.readableBytes)) ?? chunk
                        try await writer.write(slice)
                        sent += slice.readableBytes
                        try await clock.sleep(until: start + .seconds(Double(sent) / downloadBytesPerSecond))
                    }
                    try await writer.finish(nil)
                }
            )
        }
    }

    private static func addFlakyRoute(to router: Router<BasicRequestContext>, counter: FlakyCounter) {
        router.get("flaky/:key") { request, context -> Response in
            let key = context.parameters.get("key") ?? ""
            let failures = request.uri.queryParameters.get("failures", as: Int.self) ?? 2
            let attempt = counter.recordAttempt(for: key)
            guard attempt > failures else {
                return Response(status: .serviceUnavailable)
            }
            return try json(FlakyReport(attempts: attempt))
        }
    }

    private static func addTokenRoutes(to router: Router<BasicRequestContext>) {
        router.get("user/starred") { request, _ -> Response in
            let token = request.headers[.authorization].map { String($0.dropFirst("Bearer ".count)) } ?? ""
            guard DemoToken.isValid(token) else {
                return Response(status: .unauthorized, headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#])
            }
            return try json(Starred(repositories: ["Moya/Moya", "swift-server/async-http-client"]))
        }
        router.post("login/oauth/access_token") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 16 * 1024)
            let fields = try? JSONDecoder().decode([String: String].self, from: Data(body.readableBytesView))
            guard fields?["refresh_token"] == DemoToken.refreshToken else {
                return Response(status: .badRequest)
            }
            let pair = TokenPair(
                accessToken: DemoToken.issue(validFor: 3600),
                refreshToken: DemoToken.refreshToken,
                expiresIn: 3600
            )
            return try json(pair)
        }
    }

    /// The same identifier for a name on every run, unlike `hashValue`.
    private static func stableID(for name: String) -> Int {
        name.utf8.reduce(7) { ($0 &* 31 &+ Int($1)) % 100_000 }
    }

    private static func json(_ value: some Encodable) throws -> Response {
        let data = try JSONEncoder().encode(value)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

/// A user as the server sends it; encoded rather than interpolated, so any name is valid JSON.
private struct UserPayload: Encodable {
    let login: String
    let id: Int
}

/// A repository as the server sends it.
private struct RepositoryPayload: Encodable {
    let name: String
}
