import Foundation
import Moya
import Testing

/// Compiles only for `Sendable` values: the checks below are made by the compiler.
private func requireSendable<T: Sendable>(_ value: T) -> T { value }

@Suite("A Swift 6 user's code")
struct Swift6UserTests {
    @Test func providerTargetsAndResultsAreSendable() {
        let provider = requireSendable(MoyaProvider<PublicAPI>(stubClosure: MoyaProvider.immediatelyStub))
        _ = requireSendable(provider.endpoint(.zen))
        _ = requireSendable(PublicAPI.user(name: "octocat"))
        _ = requireSendable(MoyaProvider<InternalAPI>())
        _ = requireSendable(MoyaError.requestMapping("x"))
        _ = requireSendable(ProgressResponse())
    }

    @MainActor
    @Test func callbackAPIFromTheMainActorCompletesOnTheMainQueue() async throws {
        // On Linux the main queue may be drained by a thread other than the process's first one,
        // so the queue is recognised by a key rather than by `Thread.isMainThread`.
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        let provider = MoyaProvider<PublicAPI>(stubClosure: MoyaProvider.immediatelyStub)
        let (statusCode, onMain) = await withCheckedContinuation { continuation in
            provider.request(.zen) { result in
                continuation.resume(
                    returning: ((try? result.get())?.statusCode, DispatchQueue.getSpecific(key: key) == "main")
                )
            }
        }
        #expect(statusCode == 200)
        #expect(onMain)
    }

    @MainActor
    @Test func asyncAPIFromTheMainActor() async throws {
        let provider = MoyaProvider<PublicAPI>(stubClosure: MoyaProvider.immediatelyStub)
        let response = try await provider.request(.user(name: "octocat"))
        #expect(try response.mapString(atKeyPath: "login") == "octocat")
        let results = try await provider.request(.user(name: "octocat"), as: [String: String].self)
        #expect(results["login"] == "octocat")
    }

    @Test func asyncAPIFromADetachedTask() async throws {
        let provider = MoyaProvider<InternalAPI>(stubClosure: MoyaProvider.immediatelyStub)
        // In a file that imports Moya, `Task` is Moya's enum: Swift's is `_Concurrency.Task`.
        let statusCode = try await _Concurrency.Task.detached {
            try await provider.request(.search(query: "swift")).statusCode
        }.value
        #expect(statusCode == 200)
    }

    @Test func aFileImportingMoyaStartsSwiftTasksByTheirFullName() async {
        let task: _Concurrency.Task<Int, Never> = _Concurrency.Task { 6 * 7 }
        #expect(await task.value == 42)
        let target: Moya.Task = .requestPlain
        if case .requestPlain = target {} else { Issue.record("Moya.Task names Moya's enum") }
    }

    @MainActor
    @Test func progressStreamConsumedOnTheMainActor() async throws {
        let provider = MoyaProvider<PublicAPI>(stubClosure: MoyaProvider.delayedStub(0.01))
        var completed = false
        for try await event in provider.requestWithProgress(.zen) {
            completed = event.completed
        }
        #expect(completed)
    }
}
