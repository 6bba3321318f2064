import Foundation
import Hummingbird
import Moya
import Testing

/// In a file that imports Hummingbird beside Moya, a bare `Response` is Hummingbird's. These
/// plugins are written as a server engineer writes them there.
@Suite("Plugins in a file that imports a server framework")
struct ServerFrameworkPluginTests {
    /// Written with `MoyaResponse`, in the conformance's extension.
    final class MoyaResponsePlugin: Sendable {
        let received = Synchronized(0)
    }

    /// Written the usual Moya way, in the class body: here `Response` is Hummingbird's.
    final class BareResponsePlugin: PluginType, Sendable {
        let received = Synchronized(0)

        func didReceive(_ result: Result<Response, MoyaError>, target: TargetType) {
            received.update { $0 += 1 }
        }
    }

    private func provider(_ plugins: [PluginType]) -> MoyaProvider<DynamicTarget> {
        MoyaProvider<DynamicTarget>(stubClosure: MoyaProvider.immediatelyStub, plugins: plugins)
    }

    private let target = DynamicTarget(baseURL: URL(fileURLWithPath: "/"), path: "/zen")

    @Test func aPluginWrittenWithMoyaResponseIsCalled() async throws {
        let plugin = MoyaResponsePlugin()
        _ = try await provider([plugin]).request(target)
        #expect(plugin.received.update { $0 } == 1)
    }

    @Test func aPluginWrittenWithABareResponseIsTheFrameworksAndNeverCalled() async throws {
        // The trap the README and the Linux and Server article warn about, pinned: if Swift
        // ever resolves `Response` to Moya's here, or reports it, the documentation must change.
        let plugin = BareResponsePlugin()
        _ = try await provider([plugin]).request(target)
        #expect(plugin.received.update { $0 } == 0)
        #expect(Response.self != MoyaResponse.self)
    }
}

extension ServerFrameworkPluginTests.MoyaResponsePlugin: PluginType {
    func didReceive(_ result: Result<MoyaResponse, MoyaError>, target: TargetType) {
        received.update { $0 += 1 }
    }
}
