import Foundation
import LoopbackServer
import Testing

@testable import Moya

@Suite("HTTP cache on disk over the network")
struct CacheDiskNetworkTests {
    @Test func aDiskCacheServesHitsAndItsFilesHoldNoRequestSecret() async throws {
        let origin = CacheOrigin()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moya-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let token = "Bearer TOKEN-SECRET-123"
        try await TestServer.with({
            origin.route($0, "/private") { _, _ in
                .init(
                    headers: [("Cache-Control", "max-age=600"), ("Set-Cookie", "session=COOKIE-SECRET-789")],
                    body: "mine"
                )
            }
        }) { server in
            let cache = try HTTPCache.disk(directory: directory, maxBytes: 1 << 20, storesAuthorizedResponses: true)
            let provider = cachingProvider(cache)
            var components = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)!
            components.user = "user"
            components.password = "PASSWORD-SECRET"
            let target = CacheTarget(
                baseURL: components.url!,
                path: "/private",
                headers: ["Authorization": token],
                makeTask: {
                    .requestParameters(parameters: ["api_key": "KEY-SECRET-456"], encoding: URLEncoding.queryString)
                }
            )
            let first = try await provider.request(target)
            let second = try await provider.request(target)
            #expect(first.cacheStatus == .miss)
            #expect(second.cacheStatus.isFromCache)
            #expect(try second.mapString() == "mine")
            #expect(second.response?.value(forHTTPHeaderField: "Set-Cookie") == nil)
            #expect(origin.hits("/private") == 1)
            #expect(cache.currentBytes > 0)

            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(files.count == 1)
            for file in files {
                let bytes = try Data(contentsOf: directory.appendingPathComponent(file))
                for secret in ["TOKEN-SECRET-123", "KEY-SECRET-456", "COOKIE-SECRET-789", "PASSWORD-SECRET", "private"]
                {
                    #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) was written to \(file)")
                    #expect(!file.contains(secret))
                }
            }

            cache.removeAll()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
            #expect(try await provider.request(target).cacheStatus == .miss)
        }
    }
}
