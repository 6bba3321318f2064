import Foundation
import Moya
import MoyaTesting
import Testing

@Suite("Stub sequences answer in order and repeat the last")
struct StubSequenceTests {
    @Test func answers503ThenRepeats200() async throws {
        let sequence = StubSequence(.networkResponse(503, Data("busy".utf8)), .networkResponse(200, Data("ok".utf8)))
        let provider = MoyaProvider<Greeting>.stubbed(sequence.sampleResponseClosure)

        var statuses: [Int] = []
        for _ in 0..<4 {
            statuses.append(try await provider.request(.hello).statusCode)
        }
        #expect(statuses == [503, 200, 200, 200])
        #expect(sequence.answered == 4)
    }

    @Test func aFailureCanComeFirst() async throws {
        let sequence = StubSequence(.failure(.connectionLost), .json("{}"))
        let provider = MoyaProvider<Greeting>.stubbed(sequence.sampleResponseClosure)

        await #expect(throws: MoyaError.self) { try await provider.request(.hello) }
        #expect(try await provider.request(.hello).statusCode == 200)
    }

    @Test func concurrentRequestsEachTakeOneAnswer() async throws {
        let sequence = StubSequence(
            .networkResponse(500, Data()),
            [.networkResponse(502, Data()), .networkResponse(200, Data())]
        )
        let provider = MoyaProvider<Greeting>.stubbed(sequence.sampleResponseClosure)

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<12 {
                group.addTask { try await provider.request(.wave).statusCode }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.sorted() == [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 500, 502])
    }
}
