import Foundation
import NIOHTTP1
import Testing

@testable import Moya

@Suite("InlineLock: one writer at a time, inside its owner")
struct InlineLockTests {
    /// An object that keeps its lock inline, as the lifecycle does.
    private final class Counter: Sendable {
        let count = InlineLock(0)
    }

    @Test func incrementsFromManyThreadsAreNeverLost() async {
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 {
                        counter.count.withLockedValue { $0 += 1 }
                    }
                }
            }
        }
        #expect(counter.count.withLockedValue { $0 } == 80_000)
    }

    @Test func theBodysResultIsReturnedAndItsChangeKept() {
        let lock = InlineLock([1, 2])
        let sum = lock.withLockedValue { values -> Int in
            values.append(3)
            return values.reduce(0, +)
        }
        #expect(sum == 6)
        #expect(lock.withLockedValue { $0 } == [1, 2, 3])
    }

    @Test func aReceivedResponseBuildsItsHTTPURLResponseOnceForConcurrentReaders() async throws {
        let url = try #require(URL(string: "https://example.com/zen"))
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Type": "text/plain"])
        let response = Response(head: head, url: url, data: Data("zen".utf8), request: nil, fileURL: nil)
        let seen = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for _ in 0..<16 {
                group.addTask { response.response.map(ObjectIdentifier.init) }
            }
            return await group.reduce(into: Set<ObjectIdentifier?>()) { $0.insert($1) }
        }
        #expect(seen.count == 1)
        #expect(response.response?.value(forHTTPHeaderField: "Content-Type") == "text/plain")
    }
}
