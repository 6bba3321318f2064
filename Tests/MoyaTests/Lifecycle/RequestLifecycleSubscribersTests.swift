import Testing

@testable import Moya

/// A request's subscribers alone: the order they are delivered in, and removing any of them
/// (a caller that cancels) keeps the others in that order.
@Suite("Request lifecycle subscribers")
struct RequestLifecycleSubscribersTests {
    typealias Subscribers = RequestLifecycle.StateMachine.Subscribers

    private func subscribers(_ ids: [Int]) -> Subscribers {
        var subscribers = Subscribers()
        for id in ids {
            subscribers.append(.init(id: id, delivery: .inPlace, progress: nil, completion: { _ in }))
        }
        return subscribers
    }

    @Test func subscribersAreVisitedInTheOrderTheyJoined() {
        let all = subscribers([4, 7, 9])
        #expect(all.map(\.id) == [4, 7, 9])
        #expect(all.count == 3)
        #expect(all.first?.id == 4)
    }

    @Test func removingTheFirstMakesTheNextOneFirst() {
        var all = subscribers([4, 7, 9])
        #expect(all.remove(id: 4)?.id == 4)
        #expect(all.first?.id == 7)
        #expect(all.map(\.id) == [7, 9])
    }

    @Test func removingOneInTheMiddleKeepsTheOthersInOrder() {
        var all = subscribers([4, 7, 9])
        #expect(all.remove(id: 7)?.id == 7)
        #expect(all.map(\.id) == [4, 9])
    }

    @Test func removingTheOnlySubscriberLeavesNoneAndAnUnknownIdRemovesNothing() {
        var one = subscribers([4])
        #expect(one.remove(id: 5) == nil)
        #expect(one.count == 1)
        #expect(one.remove(id: 4)?.id == 4)
        #expect(one.isEmpty)
        #expect(one.first == nil)
        #expect(one.map(\.id).isEmpty)
        one.append(.init(id: 8, delivery: .inPlace, progress: nil, completion: { _ in }))
        #expect(one.map(\.id) == [8])
    }
}
