import Hummingbird
import LoopbackServer

/// Runs `body` against a loopback server whose `/down` answers every request with `503`,
/// counting the requests it got: the upstream the resilience tests watch the policies shield.
func withFailingUpstream(_ body: (TestServer, Counter) async throws -> Void) async throws {
    let hits = Counter()
    try await TestServer.with({ router in
        router.get("down") { _, _ -> Hummingbird.Response in
            hits.increment()
            return Hummingbird.Response(status: .serviceUnavailable)
        }
    }) { server in
        try await body(server, hits)
    }
}
