import Foundation
import Moya
import MoyaTesting
import Testing

@Suite("Stubbed providers that behave like a network")
struct NetworkBehaviorTests {
    /// What one request came to: a status, or a failure's `NSURLErrorDomain` code.
    private enum Answer: Equatable {
        case status(Int)
        case failure(Int)
    }

    private func answers(_ provider: MoyaProvider<Greeting>, count: Int) async -> [Answer] {
        var answers: [Answer] = []
        for _ in 0..<count {
            do {
                answers.append(.status(try await provider.request(.hello).statusCode))
            } catch {
                // A failure without an underlying error would be a bug here; 0 makes it show.
                guard case .underlying(let inner, nil) = error else {
                    answers.append(.failure(0))
                    continue
                }
                answers.append(.failure((inner as NSError).code))
            }
        }
        return answers
    }

    @Test func theSameSeedReplaysTheSameRun() async {
        func run(seed: UInt64) async -> [Answer] {
            let behavior = NetworkBehavior(failurePercent: 20, errorPercent: 20, seed: seed)
            return await answers(MoyaProvider<Greeting>(networkBehavior: behavior), count: 40)
        }
        let first = await run(seed: 42)
        #expect(await run(seed: 42) == first)
        #expect(await run(seed: 43) != first)
        #expect(first.contains(.status(200)))
        #expect(first.contains(.status(500)))
        #expect(first.contains(.failure(NSURLErrorNetworkConnectionLost)))
    }

    @Test func aFailureIsTheChosenURLErrorAsTheNetworkPathReportsIt() async throws {
        let behavior = NetworkBehavior(failurePercent: 100, failure: URLError(.timedOut), seed: 1)
        let provider = MoyaProvider<Greeting>(networkBehavior: behavior)

        let error = await #expect(throws: MoyaError.self) { try await provider.request(.hello) }
        guard case .underlying(let inner, nil)? = error else {
            Issue.record("expected .underlying(_, nil), got \(String(describing: error))")
            return
        }
        let nsError = inner as NSError
        #expect(nsError.domain == NSURLErrorDomain)
        #expect(nsError.code == NSURLErrorTimedOut)
        #expect(nsError.userInfo[NSURLErrorFailingURLErrorKey] as? URL == URL(string: "https://greeting.example/hello"))
        #expect(nsError.localizedDescription == NetworkFailure.timedOut.error().localizedDescription)
    }

    @Test func aFailureWithACodeOfItsOwnKeepsTheCode() async throws {
        let behavior = NetworkBehavior(failurePercent: 100, failure: URLError(.notConnectedToInternet), seed: 1)
        let error = await #expect(throws: MoyaError.self) {
            try await MoyaProvider<Greeting>(networkBehavior: behavior).request(.hello)
        }
        guard case .underlying(let inner, nil)? = error else {
            Issue.record("expected .underlying(_, nil), got \(String(describing: error))")
            return
        }
        #expect((inner as NSError).domain == NSURLErrorDomain)
        #expect((inner as NSError).code == NSURLErrorNotConnectedToInternet)
        #expect(!(inner as NSError).localizedDescription.isEmpty)
    }

    @Test func anErrorResponseCarriesItsStatusHeadersAndBody() async throws {
        let body = Data(#"{"message":"slow down"}"#.utf8)
        let behavior = NetworkBehavior(
            errorPercent: 100,
            errorResponse: .init(statusCode: 429, headers: ["Retry-After": "2"], body: body),
            seed: 1
        )
        let response = try await MoyaProvider<Greeting>(networkBehavior: behavior).request(.hello)

        #expect(response.statusCode == 429)
        #expect(response.data == body)
        #expect(response.response?.value(forHTTPHeaderField: "Retry-After") == "2")
        #expect(response.response?.url == URL(string: "https://greeting.example/hello"))
        #expect(throws: MoyaError.self) { try response.filterSuccessfulStatusCodes() }
    }

    @Test func aSuccessIsTheEndpointsOwnSampleResponse() async throws {
        let provider = MoyaProvider<Greeting>(networkBehavior: NetworkBehavior(seed: 1))
        let response = try await provider.request(.hello)
        #expect(response.statusCode == 200)
        #expect(response.data == Data("sample".utf8))
    }

    @Test func theStubClosureDrawsEachDelayWithinTheVariance() {
        let behavior = NetworkBehavior(delay: 0.3, variance: 0.5, seed: 42)
        let replay = NetworkBehavior(delay: 0.3, variance: 0.5, seed: 42)
        let stub: MoyaProvider<Greeting>.StubClosure = behavior.stubClosure()
        let replayed: MoyaProvider<Greeting>.StubClosure = replay.stubClosure()
        var delays: Set<TimeInterval> = []
        for _ in 0..<200 {
            guard case .delayed(let seconds) = stub(.hello) else {
                Issue.record("expected a delay")
                return
            }
            #expect((0.15...0.45).contains(seconds))
            #expect(replayed(.hello) == .delayed(seconds: seconds))
            delays.insert(seconds)
        }
        #expect(delays.count > 100, "each request draws a delay of its own")
    }

    @Test func noDelayIsImmediateAndAnUnstubbedRequestStaysUnstubbed() {
        let stub: MoyaProvider<Greeting>.StubClosure = NetworkBehavior(seed: 1).stubClosure()
        #expect(stub(.hello) == .immediate)

        let delayed = NetworkBehavior(delay: 1, seed: 1)
        let selective: MoyaProvider<Greeting>.StubClosure = delayed.stubClosure(wrapping: {
            $0 == .hello ? .immediate : .never
        })
        #expect(selective(.hello) == .delayed(seconds: 1))
        #expect(selective(.wave) == .never)
    }

    @Test func aDelayedAnswerComesNoSoonerThanItsDelay() async throws {
        let provider = MoyaProvider<Greeting>(networkBehavior: NetworkBehavior(delay: 0.2, variance: 0.25, seed: 5))
        let started = ContinuousClock.now
        _ = try await provider.request(.hello)
        #expect(ContinuousClock.now - started >= .milliseconds(140))
    }

    @Test func eachTargetGetsTheBehaviourChosenForIt() async throws {
        let flaky = NetworkBehavior(failurePercent: 100, seed: 1)
        let choose: (Greeting) -> NetworkBehavior? = { $0 == .hello ? flaky : nil }
        let provider = MoyaProvider<Greeting>(
            endpointClosure: NetworkBehavior.endpointClosure(for: choose),
            stubClosure: NetworkBehavior.stubClosure(for: choose)
        )

        await #expect(throws: MoyaError.self) { try await provider.request(.hello) }
        #expect(try await provider.request(.wave).data == Data("sample".utf8))
    }

    @Test func aTargetCanOptInWithAPropertyOfItsOwn() async throws {
        let provider = MoyaProvider<Greeting>(
            endpointClosure: NetworkBehavior.endpointClosure(for: { $0.networkBehavior }),
            stubClosure: NetworkBehavior.stubClosure(for: { $0.networkBehavior })
        )
        let stub: MoyaProvider<Greeting>.StubClosure = NetworkBehavior.stubClosure(for: { $0.networkBehavior })

        #expect(try await provider.request(.hello).statusCode == 503)
        #expect(try await provider.request(.wave).statusCode == 200)
        #expect(stub(.wave) == .immediate)
    }

    @Test func aFailedRequestDoesNotMoveAStubSequenceOn() async throws {
        let sequence = StubSequence(.networkResponse(201, Data()), .networkResponse(202, Data()))
        let behavior = NetworkBehavior(failurePercent: 50, seed: 8)
        let provider = MoyaProvider<Greeting>(
            endpointClosure: behavior.endpointClosure(wrapping: {
                MoyaProvider.defaultEndpointMapping(for: $0).replacing(
                    sampleResponseClosure: sequence.sampleResponseClosure
                )
            }),
            stubClosure: behavior.stubClosure()
        )
        var successes = 0
        for _ in 0..<20 {
            if (try? await provider.request(.hello)) != nil {
                successes += 1
            }
        }
        #expect(successes > 0 && successes < 20)
        #expect(sequence.answered == successes)
    }
}

extension Greeting {
    /// Greeting's own choice: `.hello` is always busy, `.wave` has no behaviour.
    var networkBehavior: NetworkBehavior? {
        self == .hello ? Self.busy : nil
    }

    private static let busy = NetworkBehavior(errorPercent: 100, errorResponse: .init(statusCode: 503), seed: 1)
}
