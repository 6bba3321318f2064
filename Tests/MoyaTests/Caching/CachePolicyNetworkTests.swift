import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Testing

@testable import Moya

@Suite("HTTP cache over the network: policies, invalidation and safety")
struct CachePolicyNetworkTests {
    /// A route that is fresh for `maxAge` seconds and fails (`failing` decides how) from its
    /// second request on.
    private func flaky(_ origin: CacheOrigin, _ router: Router<BasicRequestContext>, cacheControl: String, stall: Bool)
    {
        origin.route(router, "/flaky") { _, number in
            guard number > 1 else { return .init(headers: [("Cache-Control", cacheControl)], body: "kept") }
            if stall {
                try await _Concurrency.Task.sleep(for: .seconds(20))
            }
            return .init(status: .serviceUnavailable, body: "down")
        }
    }

    @Test func staleIfErrorServesTheStaleResponseWhenTheServerFails() async throws {
        let origin = CacheOrigin()
        let clock = CacheClock()
        try await TestServer.with({ flaky(origin, $0, cacheControl: "max-age=1", stall: false) }) { server in
            let provider = cachingProvider(.memory(clock: clock, policy: .staleIfError()))
            let target = CacheTarget(baseURL: server.baseURL, path: "/flaky")
            _ = try await provider.request(target)
            clock.advance(3600)
            let stale = try await provider.request(target)
            #expect(try stale.mapString() == "kept")
            guard case .staleIfError(let age) = stale.cacheStatus else {
                Issue.record("expected a stale response, got \(stale.cacheStatus)")
                return
            }
            #expect(age >= 3600)
            // The protocol alone passes the failure on.
            let strict = try await provider.request(
                CacheTarget(baseURL: server.baseURL, path: "/flaky", cachePolicy: .useProtocol)
            )
            #expect(strict.statusCode == 503)
            // A server error leaves the stored response in place.
            let offline = try await provider.request(
                CacheTarget(
                    baseURL: server.baseURL,
                    path: "/flaky",
                    headers: ["Cache-Control": "only-if-cached, max-stale"],
                    cachePolicy: .useProtocol
                )
            )
            #expect(try offline.mapString() == "kept")
        }
    }

    @Test func staleIfErrorServesTheStaleResponseWhenTheNetworkTimesOut() async throws {
        let origin = CacheOrigin()
        let clock = CacheClock()
        try await TestServer.with({ flaky(origin, $0, cacheControl: "max-age=1", stall: true) }) { server in
            let provider = cachingProvider(.memory(clock: clock, policy: .staleIfError(maxStale: 86_400)))
            _ = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/flaky"))
            clock.advance(60)
            // Only the second request, which the server never answers, has a short timeout.
            let stale = try await provider.request(
                CacheTarget(baseURL: server.baseURL, path: "/flaky", timeoutInterval: 1)
            )
            #expect(try stale.mapString() == "kept")
            #expect(stale.cacheStatus.isFromCache)
        }
    }

    @Test func mustRevalidateIsNeverServedStaleEvenOffline() async throws {
        let origin = CacheOrigin()
        let clock = CacheClock()
        try await TestServer.with({ flaky(origin, $0, cacheControl: "max-age=1, must-revalidate", stall: false) }) {
            server in
            let provider = cachingProvider(.memory(clock: clock, policy: .staleIfError()))
            let target = CacheTarget(baseURL: server.baseURL, path: "/flaky")
            _ = try await provider.request(target)
            clock.advance(60)
            let answer = try await provider.request(target)
            #expect(answer.statusCode == 503)
            #expect(answer.cacheStatus == .miss)
        }
    }

    @Test func aTargetCanDisableTheCacheOrAlwaysRevalidate() async throws {
        let origin = CacheOrigin()
        try await TestServer.with({
            origin.route($0, "/p") { headers, _ in
                if headers[HTTPField.Name("If-None-Match")!] != nil {
                    return .init(status: .notModified)
                }
                return .init(headers: [("Cache-Control", "max-age=600"), ("ETag", "\"p\"")], body: "p")
            }
        }) { server in
            let provider = cachingProvider(.memory(clock: CacheClock()))
            let disabled = CacheTarget(baseURL: server.baseURL, path: "/p", cachePolicy: .disabled)
            #expect(try await provider.request(disabled).cacheStatus == .network)
            #expect(try await provider.request(disabled).cacheStatus == .network)
            #expect(origin.hits("/p") == 2)
            _ = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/p"))
            let always = CacheTarget(baseURL: server.baseURL, path: "/p", cachePolicy: .alwaysRevalidate)
            let checked = try await provider.request(always)
            #expect(origin.hits("/p") == 4)
            #expect(checked.cacheStatus.isRevalidated)
        }
    }

    @Test(arguments: [Moya.Method.post, .put, .patch, .delete])
    func anUnsafeMethodInvalidatesItsURLAndSameOriginLocation(method: Moya.Method) async throws {
        let origin = CacheOrigin()
        try await TestServer.with({ router in
            for path in ["/items", "/items/1"] {
                origin.route(router, path) { _, number in
                    .init(headers: [("Cache-Control", "max-age=600")], body: "\(number)")
                }
            }
            origin.route(router, "/items", method: HTTPRequest.Method(method.rawValue)!) { _, _ in
                .init(status: .ok, headers: [("Location", "/items/1")])
            }
        }) { server in
            let provider = cachingProvider(.memory(clock: CacheClock()))
            let list = CacheTarget(baseURL: server.baseURL, path: "/items")
            let item = CacheTarget(baseURL: server.baseURL, path: "/items/1")
            _ = try await provider.request(list)
            _ = try await provider.request(item)
            #expect(try await provider.request(list).cacheStatus.isFromCache)
            let change = try await provider.request(
                CacheTarget(baseURL: server.baseURL, path: "/items", method: method)
            )
            #expect(change.cacheStatus == .network)
            #expect(try await provider.request(list).cacheStatus == .miss)
            #expect(try await provider.request(item).cacheStatus == .miss)
        }
    }

    @Test func streamsPassTheCacheByAndAStreamedPostStillInvalidatesItsURL() async throws {
        let origin = CacheOrigin()
        try await TestServer.with({ router in
            origin.route(router, "/items") { _, number in
                .init(headers: [("Cache-Control", "max-age=600")], body: "list \(number)")
            }
            origin.route(router, "/items", method: .post) { _, _ in .init(status: .ok, body: "created") }
        }) { server in
            let provider = cachingProvider(.memory(clock: CacheClock()))
            let list = CacheTarget(baseURL: server.baseURL, path: "/items")
            _ = try await provider.request(list)
            // A streamed GET is neither answered from what is stored nor stored itself.
            let streamed = try await provider.stream(list)
            #expect(String(decoding: try await streamed.chunks.collect(upTo: 1 << 10), as: UTF8.self) == "list 2")
            #expect(try await provider.request(list).cacheStatus.isFromCache)
            #expect(origin.hits("/items") == 2)

            let post = try await provider.stream(CacheTarget(baseURL: server.baseURL, path: "/items", method: .post))
            #expect(String(decoding: try await post.chunks.collect(upTo: 1 << 10), as: UTF8.self) == "created")
            let after = try await provider.request(list)
            #expect(after.cacheStatus == .miss)
            // The origin counts every method on the path: two GETs, the streamed GET, the POST.
            #expect(try after.mapString() == "list 4")
        }
    }

    @Test func aFailedUnsafeRequestInvalidatesNothing() async throws {
        let origin = CacheOrigin()
        try await TestServer.with({ router in
            origin.route(router, "/items") { _, _ in .init(headers: [("Cache-Control", "max-age=600")], body: "list") }
            origin.route(router, "/items", method: .post) { _, _ in .init(status: .badRequest) }
        }) { server in
            let provider = cachingProvider(.memory(clock: CacheClock()))
            let list = CacheTarget(baseURL: server.baseURL, path: "/items")
            _ = try await provider.request(list)
            _ = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/items", method: .post))
            #expect(try await provider.request(list).cacheStatus.isFromCache)
        }
    }

    @Test func authorizedResponsesAreStoredOnlyWhenAllowedAndServedOnlyToTheSameCredentials() async throws {
        let origin = CacheOrigin()
        try await TestServer.with({ router in
            origin.route(router, "/me") { headers, _ in
                .init(headers: [("Cache-Control", "max-age=600")], body: headers[.authorization] ?? "")
            }
            origin.route(router, "/shared") { headers, _ in
                .init(headers: [("Cache-Control", "public, max-age=600")], body: headers[.authorization] ?? "")
            }
        }) { server in
            let alice = ["Authorization": "Bearer alice"]
            let bob = ["Authorization": "Bearer bob"]
            let provider = cachingProvider(.memory(clock: CacheClock()))
            for _ in 0..<2 {
                _ = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/me", headers: alice))
            }
            #expect(origin.hits("/me") == 2)

            let shared = CacheTarget(baseURL: server.baseURL, path: "/shared", headers: alice)
            _ = try await provider.request(shared)
            #expect(try await provider.request(shared).cacheStatus.isFromCache)
            let asBob = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/shared", headers: bob))
            #expect(try asBob.mapString() == "Bearer bob")
            #expect(origin.hits("/shared") == 2)

            let optedIn = cachingProvider(.memory(clock: CacheClock(), storesAuthorizedResponses: true))
            _ = try await optedIn.request(CacheTarget(baseURL: server.baseURL, path: "/me", headers: bob))
            #expect(
                try await optedIn.request(CacheTarget(baseURL: server.baseURL, path: "/me", headers: bob)).cacheStatus
                    .isFromCache
            )
            let other = try await optedIn.request(CacheTarget(baseURL: server.baseURL, path: "/me", headers: alice))
            #expect(try other.mapString() == "Bearer alice")
        }
    }

    @Test func nothingLeaksAcrossSessionsAndASessionWithoutACacheIsUntouched() async throws {
        let origin = CacheOrigin()
        try await TestServer.with({
            origin.route($0, "/z") { _, _ in .init(headers: [("Cache-Control", "max-age=600")], body: "z") }
        }) {
            server in
            let target = CacheTarget(baseURL: server.baseURL, path: "/z")
            let first = cachingProvider(.memory(clock: CacheClock()))
            let second = cachingProvider(.memory(clock: CacheClock()))
            let plain = cachingProvider(nil)
            _ = try await first.request(target)
            #expect(try await second.request(target).cacheStatus == .miss)
            #expect(try await plain.request(target).cacheStatus == .network)
            #expect(try await plain.request(target).cacheStatus == .network)
            #expect(origin.hits("/z") == 4)
        }
    }

    @Test func downloadsAndUploadsBypassTheCache() async throws {
        let origin = CacheOrigin()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cache-transfer-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let upload = folder.appendingPathComponent("upload.bin")
        try Data("payload".utf8).write(to: upload)
        try await TestServer.with({ router in
            origin.route(router, "/file") { _, _ in .init(headers: [("Cache-Control", "max-age=600")], body: "file") }
            origin.route(router, "/file", method: .put) { _, _ in .init(headers: [("Cache-Control", "max-age=600")]) }
        }) { server in
            let provider = cachingProvider(.memory(clock: CacheClock()))
            for index in 0..<2 {
                let destination = folder.appendingPathComponent("download-\(index)")
                let download = CacheTarget(baseURL: server.baseURL, path: "/file") {
                    .downloadDestination { _, _ in (destination, []) }
                }
                let response = try await provider.request(download)
                #expect(response.cacheStatus == .network)
                #expect(try String(contentsOf: destination, encoding: .utf8) == "file")
            }
            #expect(origin.hits("/file") == 2)
            let put = CacheTarget(baseURL: server.baseURL, path: "/file", method: .put) { .uploadFile(upload) }
            #expect(try await provider.request(put).cacheStatus == .network)
        }
    }
}
