import Foundation
import Testing

@testable import Moya

@Suite("ReconnectSchedule: when an event stream reconnects")
struct ReconnectScheduleTests {
    let start = ContinuousClock.now

    private func at(_ seconds: Double) -> ContinuousClock.Instant {
        start.advanced(by: .seconds(seconds))
    }

    /// One connection that delivers an event and ends `lasting` seconds later; the wait.
    private func connectionWithAnEvent(
        _ schedule: inout ReconnectSchedule,
        from: Double,
        lasting: Double,
        serverRetry: Int?
    ) -> Double? {
        schedule.connectionOpened(at: at(from))
        schedule.eventReceived()
        return schedule.connectionEnded(at: at(from + lasting), mayReconnect: true, serverRetry: serverRetry)
    }

    @Test func aRetryOfZeroIsFlooredAndBacksOffWhileOneEventPerConnectionNeverResetsTheCount() {
        var schedule = ReconnectSchedule(policy: .attempts(5, delay: 1))
        var waits: [Double?] = []
        for connection in 0..<6 {
            waits.append(connectionWithAnEvent(&schedule, from: Double(connection) * 20, lasting: 0.01, serverRetry: 0))
        }
        #expect(waits == [0.5, 1, 2, 4, 8, nil])
    }

    @Test func theWaitStartsAtTheServersRetryAndNeverPassesTheMaximum() {
        var schedule = ReconnectSchedule(policy: .attempts(10, delay: 1, maximumDelay: 5))
        var waits: [Double?] = []
        for connection in 0..<4 {
            waits.append(connectionWithAnEvent(&schedule, from: Double(connection) * 20, lasting: 1, serverRetry: 1500))
        }
        #expect(waits == [1.5, 3, 5, 5])
    }

    @Test func theFloorWinsOverASmallerMaximum() {
        let policy = EventStreamReconnectPolicy(maximumAttempts: 3, delay: 0, maximumDelay: 0.1, minimumDelay: 0.5)
        #expect(policy.wait(serverRetry: 0, attempt: 1) == 0.5)
        #expect(policy.wait(serverRetry: nil, attempt: 3) == 0.5)
    }

    @Test func aStableConnectionStartsTheCountAndTheBackOffAgain() {
        var schedule = ReconnectSchedule(policy: .attempts(2, delay: 1))
        #expect(connectionWithAnEvent(&schedule, from: 0, lasting: 0.1, serverRetry: nil) == 1)
        #expect(connectionWithAnEvent(&schedule, from: 10, lasting: 0.1, serverRetry: nil) == 2)
        // Open for the whole stable duration, with an event: a fresh start.
        #expect(connectionWithAnEvent(&schedule, from: 20, lasting: 10, serverRetry: nil) == 1)
        #expect(schedule.attemptsInARow == 1)
    }

    @Test func aLongConnectionWithoutAnEventIsNotStable() {
        var schedule = ReconnectSchedule(policy: .attempts(1, delay: 1))
        schedule.connectionOpened(at: at(0))
        #expect(schedule.connectionEnded(at: at(0.1), mayReconnect: true, serverRetry: nil) == 1)
        schedule.connectionOpened(at: at(1))
        #expect(schedule.connectionEnded(at: at(100), mayReconnect: true, serverRetry: nil) == nil)
    }

    @Test func aFailedConnectCountsAsAnAttempt() {
        var schedule = ReconnectSchedule(policy: .attempts(1, delay: 1))
        #expect(schedule.connectionEnded(at: at(0), mayReconnect: true, serverRetry: nil) == 1)
        #expect(schedule.connectionEnded(at: at(1), mayReconnect: true, serverRetry: nil) == nil)
    }

    @Test func aFinalEndingNeverReconnects() {
        var schedule = ReconnectSchedule(policy: .attempts(5))
        #expect(connectionWithAnEvent(&schedule, from: 0, lasting: 60, serverRetry: nil) == 3)
        schedule.connectionOpened(at: at(100))
        #expect(schedule.connectionEnded(at: at(101), mayReconnect: false, serverRetry: nil) == nil)
    }

    @Test func theNeverPolicyNeverReconnects() {
        var schedule = ReconnectSchedule(policy: .never)
        #expect(connectionWithAnEvent(&schedule, from: 0, lasting: 60, serverRetry: 0) == nil)
    }
}
