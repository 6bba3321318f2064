import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Testing

@testable import Moya

@Suite("HTTP cache over the network: freshness and validation")
struct CacheNetworkTests {
    @Test func aFreshResponseIsServedFromTheCacheWithoutReachingTheServer() async throws {
        let origin = CacheOrigin()
        try await TestServer.with({
            origin.route($0, "/zen") { _, _ in .init(headers: [("Cache-Control", "max-age=60")], body: "zen") }
        }) {
            server in
            let provider = cachingProvider(.memory(clock: CacheClock()))
            let target = CacheTarget(baseURL: server.baseURL, path: "/zen")
            let first = try await provider.request(target)
            let second = try await provider.request(target)
            #expect(first.cacheStatus == .miss)
            #expect(second.cacheStatus.isFromCache)
            #expect(second.cacheStatus.age != nil)
            #expect(try second.mapString() == "zen")
            #expect(second.statusCode == 200)
            #expect(second.response?.value(forHTTPHeaderField: "Age") != nil)
            #expect(second.response?.value(forHTTPHeaderField: "Cache-Control") == "max-age=60")
            #expect(origin.hits("/zen") == 1)
        }
    }

    @Test func aStaleResponseIsRevalidatedWithItsETagAndA304ServesTheStoredBodyWithUpdatedHeaders() async throws {
        let origin = CacheOrigin()
        let clock = CacheClock()
        try await TestServer.with({
            origin.route($0, "/doc") { headers, _ in
                if headers[HTTPField.Name("If-None-Match")!] == "\"v1\"" {
                    return .init(
                        status: .notModified,
                        headers: [("Cache-Control", "max-age=60"), ("X-Version", "checked")]
                    )
                }
                return .init(
                    headers: [("Cache-Control", "max-age=10"), ("ETag", "\"v1\""), ("X-Version", "first")],
                    body: "body-v1"
                )
            }
        }) { server in
            let provider = cachingProvider(.memory(clock: clock))
            let target = CacheTarget(baseURL: server.baseURL, path: "/doc")
            _ = try await provider.request(target)
            clock.advance(30)
            let revalidated = try await provider.request(target)
            #expect(origin.hits("/doc") == 2)
            #expect(origin.lastHeader("If-None-Match", at: "/doc") == "\"v1\"")
            #expect(revalidated.cacheStatus.isRevalidated, "\(revalidated.cacheStatus)")
            #expect(revalidated.statusCode == 200)
            #expect(try revalidated.mapString() == "body-v1")
            #expect(revalidated.response?.value(forHTTPHeaderField: "X-Version") == "checked")
            // The 304's max-age=60 made it fresh again (the clock's jump counts as 30 s of age:
            // the server's Date is real time).
            clock.advance(10)
            let hit = try await provider.request(target)
            #expect(hit.cacheStatus.isFromCache)
            #expect(origin.hits("/doc") == 2)
        }
    }

    @Test func lastModifiedIsSentAsIfModifiedSinceAndANewBodyReplacesTheStoredOne() async throws {
        let origin = CacheOrigin()
        let clock = CacheClock()
        let stamp = "Tue, 15 Nov 1994 12:45:26 GMT"
        try await TestServer.with({
            origin.route($0, "/file") { _, number in
                .init(
                    headers: [("Cache-Control", "max-age=\(number * 100)"), ("Last-Modified", stamp)],
                    body: "version \(number)"
                )
            }
        }) { server in
            let provider = cachingProvider(.memory(clock: clock))
            let target = CacheTarget(baseURL: server.baseURL, path: "/file")
            _ = try await provider.request(target)
            clock.advance(150)
            let changed = try await provider.request(target)
            #expect(origin.lastHeader("If-Modified-Since", at: "/file") == stamp)
            #expect(changed.cacheStatus == .miss)
            #expect(try changed.mapString() == "version 2")
            let hit = try await provider.request(target)
            #expect(try hit.mapString() == "version 2")
            #expect(hit.cacheStatus.isFromCache)
            #expect(origin.hits("/file") == 2)
        }
    }

    @Test func heuristicFreshnessServesAResponseWithOnlyLastModified() async throws {
        let origin = CacheOrigin()
        let lastModified = CacheFixture.httpDate(Date().addingTimeInterval(-10 * 86_400))
        try await TestServer.with({
            origin.route($0, "/old") { _, _ in .init(headers: [("Last-Modified", lastModified)], body: "old") }
            origin.route($0, "/bare") { _, _ in .init(body: "bare") }
        }) { server in
            let provider = cachingProvider(.memory(clock: CacheClock()))
            for path in ["/old", "/old", "/bare", "/bare"] {
                _ = try await provider.request(CacheTarget(baseURL: server.baseURL, path: path))
            }
            #expect(origin.hits("/old") == 1)
            // No validator, no lifetime: every request goes to the server.
            #expect(origin.hits("/bare") == 2)
        }
    }

    @Test func noStoreIsNeverStoredAndNoCacheIsAlwaysValidated() async throws {
        let origin = CacheOrigin()
        try await TestServer.with({
            origin.route($0, "/secret") { _, _ in .init(headers: [("Cache-Control", "no-store, max-age=60")], body: "s")
            }
            origin.route($0, "/checked") { headers, _ in
                if headers[HTTPField.Name("If-None-Match")!] == "\"c\"" {
                    return .init(status: .notModified)
                }
                return .init(headers: [("Cache-Control", "no-cache, max-age=60"), ("ETag", "\"c\"")], body: "c")
            }
        }) { server in
            let provider = cachingProvider(.memory(clock: CacheClock()))
            for _ in 0..<2 {
                let response = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/secret"))
                #expect(response.cacheStatus == .miss)
            }
            #expect(origin.hits("/secret") == 2)
            _ = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/checked"))
            let second = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/checked"))
            #expect(origin.hits("/checked") == 2)
            #expect(origin.lastHeader("If-None-Match", at: "/checked") == "\"c\"")
            #expect(second.cacheStatus.isRevalidated)
            #expect(try second.mapString() == "c")
        }
    }

    @Test(arguments: ["no-cache", "max-age=0"])
    func requestDirectivesForceValidation(directive: String) async throws {
        let origin = CacheOrigin()
        try await TestServer.with({
            origin.route($0, "/r") { headers, _ in
                if headers[HTTPField.Name("If-None-Match")!] != nil {
                    return .init(status: .notModified)
                }
                return .init(headers: [("Cache-Control", "max-age=600"), ("ETag", "\"r\"")], body: "r")
            }
        }) { server in
            let clock = CacheClock()
            let provider = cachingProvider(.memory(clock: clock))
            _ = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/r"))
            // A second old, still fresh by the response's max-age=600: only the request's
            // directive can send it back to the server (`max-age=0` accepts an age of 0).
            clock.advance(1)
            let forced = try await provider.request(
                CacheTarget(baseURL: server.baseURL, path: "/r", headers: ["Cache-Control": directive])
            )
            #expect(origin.hits("/r") == 2)
            #expect(forced.cacheStatus.isRevalidated, "\(forced.cacheStatus)")
        }
    }

    @Test func onlyIfCachedAnswers504WhenNothingFitsAndServesWhatDoes() async throws {
        let origin = CacheOrigin()
        try await TestServer.with({
            origin.route($0, "/o") { _, _ in .init(headers: [("Cache-Control", "max-age=60")], body: "o") }
        }) {
            server in
            let provider = cachingProvider(.memory(clock: CacheClock()))
            let offline = CacheTarget(baseURL: server.baseURL, path: "/o", headers: ["Cache-Control": "only-if-cached"])
            let empty = try await provider.request(offline)
            #expect(empty.statusCode == 504)
            #expect(empty.cacheStatus == .unsatisfiable)
            #expect(origin.hits("/o") == 0)
            _ = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/o"))
            let served = try await provider.request(offline)
            #expect(served.statusCode == 200)
            #expect(served.cacheStatus.isFromCache)
            #expect(origin.hits("/o") == 1)
        }
    }

    @Test func uncacheableStatusCodesAreNotStored() async throws {
        let origin = CacheOrigin()
        try await TestServer.with({
            origin.route($0, "/e") { _, _ in .init(status: .internalServerError, body: "e") }
            origin.route($0, "/missing") { _, _ in .init(status: .notFound, headers: [("Cache-Control", "max-age=60")])
            }
        }) { server in
            let provider = cachingProvider(.memory(clock: CacheClock()))
            for _ in 0..<2 {
                _ = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/e"))
                _ = try await provider.request(CacheTarget(baseURL: server.baseURL, path: "/missing"))
            }
            #expect(origin.hits("/e") == 2)
            #expect(origin.hits("/missing") == 1)
        }
    }

    @Test func varyStoresOneVariantAndADifferentHeaderValueMisses() async throws {
        let origin = CacheOrigin()
        try await TestServer.with({
            origin.route($0, "/v") { headers, _ in
                let language = headers[.acceptLanguage] ?? "none"
                return .init(headers: [("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")], body: language)
            }
        }) { server in
            let provider = cachingProvider(.memory(clock: CacheClock()))
            let english = CacheTarget(baseURL: server.baseURL, path: "/v", headers: ["Accept-Language": "en"])
            let french = CacheTarget(baseURL: server.baseURL, path: "/v", headers: ["Accept-Language": "fr"])
            #expect(try await provider.request(english).mapString() == "en")
            #expect(try await provider.request(english).cacheStatus.isFromCache)
            let other = try await provider.request(french)
            #expect(try other.mapString() == "fr")
            #expect(other.cacheStatus == .miss)
            #expect(origin.hits("/v") == 2)
        }
    }

    @Test func aRedirectedResponseIsStoredUnderTheRequestedURLAndKeepsItsFinalURL() async throws {
        let origin = CacheOrigin()
        try await TestServer.with({ router in
            origin.route(router, "/old") { _, _ in .init(status: .found, headers: [("Location", "/new")]) }
            origin.route(router, "/new") { _, _ in .init(headers: [("Cache-Control", "max-age=600")], body: "moved") }
        }) { server in
            let provider = cachingProvider(.memory(clock: CacheClock()))
            let target = CacheTarget(baseURL: server.baseURL, path: "/old")
            _ = try await provider.request(target)
            let hit = try await provider.request(target)
            #expect(hit.cacheStatus.isFromCache)
            #expect(try hit.mapString() == "moved")
            #expect(hit.response?.url?.path == "/new")
            #expect(origin.hits("/old") == 1)
            #expect(origin.hits("/new") == 1)
        }
    }
}
