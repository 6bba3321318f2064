import Foundation
import Moya
import Testing

/// A transport of the user's own that answers every request with a cookie, and says whether it
/// keeps cookies itself; it records the `Cookie` header each request arrived with, and whether
/// it was shut down.
final class CookieSettingTransport: Transport {
    let keepsCookies: Bool
    private let lock = NSLock()
    // Guarded by `lock`.
    nonisolated(unsafe) private var cookieHeaders: [String?] = []
    // Guarded by `lock`.
    nonisolated(unsafe) private var shutDown = false

    init(keepsCookies: Bool) {
        self.keepsCookies = keepsCookies
    }

    var receivedCookies: [String?] { lock.withLock { cookieHeaders } }
    var wasShutDown: Bool { lock.withLock { shutDown } }

    func send(_ exchange: TransportExchange, events: TransportEvents) {
        lock.withLock { cookieHeaders.append(exchange.request.value(forHTTPHeaderField: "Cookie")) }
        let response = exchange.request.url.flatMap {
            HTTPURLResponse(
                url: $0,
                statusCode: 200,
                httpVersion: "HTTP/1.1",
                headerFields: ["Set-Cookie": "sid=abc; Path=/"]
            )
        }
        let answer = Response(statusCode: 200, data: Data(), request: exchange.request, response: response)
        events.completion(.success(answer))
    }

    func shutdown() async throws {
        lock.withLock { shutDown = true }
    }
}

@Suite("What a transport of the user's own declares")
struct TransportCapabilitiesTests {
    private func storage() -> HTTPCookieStorage {
        HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "moya-user-\(UUID().uuidString)")
    }

    private func twoRequests(through transport: CookieSettingTransport, storage: HTTPCookieStorage) async throws {
        let session = Session(transport: transport, configuration: .init(cookieStorage: storage))
        let provider = MoyaProvider<PathTarget>(session: session)
        _ = try await provider.request(PathTarget(path: "/login"))
        _ = try await provider.request(PathTarget(path: "/me"))
    }

    @Test func theSessionsStorageKeepsCookiesForATransportThatDoesNot() async throws {
        let transport = CookieSettingTransport(keepsCookies: false)
        let storage = storage()
        try await twoRequests(through: transport, storage: storage)
        #expect(transport.receivedCookies == [nil, "sid=abc"])
        #expect(storage.cookies?.map(\.name) == ["sid"])
    }

    @Test func aTransportThatKeepsItsOwnCookiesGetsNoneFromTheSessionsStorage() async throws {
        let transport = CookieSettingTransport(keepsCookies: true)
        let storage = storage()
        try await twoRequests(through: transport, storage: storage)
        #expect(transport.receivedCookies == [nil, nil])
        #expect(storage.cookies?.isEmpty ?? true, "the session stored none of the responses' cookies")
    }

    @Test func shuttingTheSessionDownShutsItsTransportDown() async throws {
        let transport = CookieSettingTransport(keepsCookies: false)
        let session = Session(transport: transport)
        #expect(!transport.wasShutDown)
        try await session.shutdown()
        #expect(transport.wasShutDown)
    }
}
