import Foundation
import Moya
import Testing

@Suite("Provider pipeline on stubs")
struct ProviderPipelineTests {
    let queue = DispatchQueue(label: "provider-pipeline-tests")

    @Test func stagesRunInMoyaOrder() async throws {
        let log = EventLog()
        let provider = MoyaProvider<PipelineTarget>(
            endpointClosure: { target in
                log.record("endpointClosure")
                return Endpoint(
                    url: URL(target: target).absoluteString,
                    sampleResponseClosure: {
                        log.record("stub")
                        return .networkResponse(200, target.sampleData)
                    },
                    method: target.method,
                    task: target.task,
                    httpHeaderFields: target.headers
                )
            },
            requestClosure: { endpoint, done in
                log.record("requestClosure")
                MoyaProvider<PipelineTarget>.defaultRequestMapping(for: endpoint, closure: done)
            },
            stubClosure: { _ in
                log.record("stubClosure")
                return .immediate
            },
            plugins: [RecordingPlugin(name: "plugin", log: log)]
        )

        let result = await provider.requestAndWait(.zen, callbackQueue: queue)
        log.record("completion")

        #expect(try result.get().statusCode == 200)
        #expect(
            log.all == [
                "endpointClosure", "stubClosure", "requestClosure", "plugin.prepare", "plugin.willSend",
                "stub", "plugin.didReceive", "plugin.process", "completion",
            ]
        )
    }

    @Test func pluginsRunInTheOrderGiven() async {
        let log = EventLog()
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [RecordingPlugin(name: "a", log: log), RecordingPlugin(name: "b", log: log)]
        )
        _ = await provider.requestAndWait(.zen, callbackQueue: queue)
        #expect(
            log.all == [
                "a.prepare", "b.prepare", "a.willSend", "b.willSend", "a.didReceive", "b.didReceive", "a.process",
                "b.process",
            ]
        )
    }

    @Test func stubbedResponseCarriesSampleDataAndPreparedRequest() async throws {
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let response = try await provider.requestAndWait(.user("ashfurrow"), callbackQueue: queue).get()
        #expect(response.data == PipelineTarget.user("ashfurrow").sampleData)
        #expect(response.request?.url?.absoluteString == "https://api.example.test/users/ashfurrow")
        #expect(response.response == nil)
    }

    @Test func validationTypeAppliesToStubs() async throws {
        let provider = MoyaProvider<PipelineTarget>(
            endpointClosure: { target in
                MoyaProvider.defaultEndpointMapping(for: target).replacingSample(statusCode: 500)
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        let result = await provider.requestAndWait(.validated(statusCode: 500), callbackQueue: queue)
        guard case .failure(.underlying(let inner, let response)) = result,
            case .statusCode(let statusResponse)? = inner as? MoyaError
        else {
            Issue.record("expected a wrapped status code error, got \(result)")
            return
        }
        #expect(response?.statusCode == 500)
        #expect(statusResponse.statusCode == 500)
    }

    @Test func validationAcceptsSuccessCodes() async throws {
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let response = try await provider.requestAndWait(.validated(statusCode: 200), callbackQueue: queue).get()
        #expect(response.statusCode == 200)
    }

    @Test func sampleNetworkErrorBecomesUnderlyingWithoutResponse() async {
        let sampleError = NSError(domain: "test", code: 42)
        let provider = MoyaProvider<PipelineTarget>(
            endpointClosure: { target in
                Endpoint(
                    url: URL(target: target).absoluteString,
                    sampleResponseClosure: { .networkError(sampleError) },
                    method: target.method,
                    task: target.task,
                    httpHeaderFields: target.headers
                )
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        let result = await provider.requestAndWait(.zen, callbackQueue: queue)
        guard case .failure(.underlying(let error, let response)) = result else {
            Issue.record("expected .underlying, got \(result)")
            return
        }
        #expect((error as NSError).code == 42)
        #expect(response == nil)
    }

    @Test func sampleHTTPURLResponseGivesItsStatusAndHeaders() async throws {
        let url = URL(string: "https://api.example.test/zen")!
        let httpResponse = try #require(
            HTTPURLResponse(url: url, statusCode: 201, httpVersion: "HTTP/1.1", headerFields: ["X-Sample": "yes"])
        )
        let provider = MoyaProvider<PipelineTarget>(
            endpointClosure: { target in
                Endpoint(
                    url: URL(target: target).absoluteString,
                    sampleResponseClosure: { .response(httpResponse, Data("ok".utf8)) },
                    method: target.method,
                    task: target.task,
                    httpHeaderFields: target.headers
                )
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        let response = try await provider.requestAndWait(.zen, callbackQueue: queue).get()
        #expect(response.statusCode == 201)
        #expect(response.response?.value(forHTTPHeaderField: "X-Sample") == "yes")
    }

    @Test func requestClosureMayAnswerLaterFromAnotherThread() async throws {
        let provider = MoyaProvider<PipelineTarget>(
            requestClosure: { endpoint, done in
                DispatchQueue.global().async {
                    do {
                        var request = try endpoint.urlRequest()
                        request.setValue("signed", forHTTPHeaderField: "X-Signature")
                        done(.success(request))
                    } catch {
                        done(.failure(MoyaError.underlying(error)))
                    }
                }
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        let response = try await provider.requestAndWait(.zen, callbackQueue: queue).get()
        #expect(response.request?.value(forHTTPHeaderField: "X-Signature") == "signed")
    }

    @Test func requestClosureFailureCompletesWithItsErrorWithoutPluginCallbacks() async {
        let log = EventLog()
        let provider = MoyaProvider<PipelineTarget>(
            requestClosure: { _, done in done(.failure(.requestMapping("nope"))) },
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [RecordingPlugin(name: "plugin", log: log)]
        )
        let result = await provider.requestAndWait(.zen, callbackQueue: queue)
        guard case .failure(.requestMapping("nope")) = result else {
            Issue.record("expected the request closure's error, got \(result)")
            return
        }
        #expect(log.all == ["plugin.process"])
    }

    @Test func requestClosureAnsweringTwiceCompletesOnce() async {
        let completions = Counter()
        let provider = MoyaProvider<PipelineTarget>(
            requestClosure: { endpoint, done in
                MoyaProvider<PipelineTarget>.defaultRequestMapping(for: endpoint, closure: done)
                MoyaProvider<PipelineTarget>.defaultRequestMapping(for: endpoint, closure: done)
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        _ = await provider.requestAndWait(.zen, callbackQueue: queue)
        completions.increment()
        // A second completion would be delivered on the same serial queue before this block.
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(completions.count == 1)
    }

    @Test func headerWithLineBreakFailsBeforeAnythingIsSent() async {
        let log = EventLog()
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [RecordingPlugin(name: "plugin", log: log)]
        )
        let result = await provider.requestAndWait(.headerInjection, callbackQueue: queue)
        guard case .failure(.underlying(let error, nil)) = result else {
            Issue.record("expected an underlying error, got \(result)")
            return
        }
        #expect("\(error)".contains("X-Evil"))
        #expect(!log.all.contains("plugin.willSend"))
    }

    @Test func seedStyleRequestClosureCompiles() async throws {
        let requestClosure = {
            @Sendable (endpoint: Endpoint, done: @escaping MoyaProvider<PipelineTarget>.RequestResultClosure) in
            do {
                var request: URLRequest = try endpoint.urlRequest()
                request.httpShouldHandleCookies = false
                done(.success(request))
            } catch {
                done(.failure(MoyaError.underlying(error)))
            }
        }
        let provider = MoyaProvider<PipelineTarget>(
            requestClosure: requestClosure,
            stubClosure: MoyaProvider.immediatelyStub
        )
        let response = try await provider.requestAndWait(.zen, callbackQueue: queue).get()
        #expect(response.request?.httpShouldHandleCookies == false)
    }
}

extension Endpoint {
    /// The same endpoint, answering its stub with another status code.
    func replacingSample(statusCode: Int) -> Endpoint {
        let sample = sampleResponseClosure
        return Endpoint(
            url: url,
            sampleResponseClosure: {
                guard case .networkResponse(_, let data) = sample() else { return sample() }
                return .networkResponse(statusCode, data)
            },
            method: method,
            task: task,
            httpHeaderFields: httpHeaderFields
        )
    }
}
