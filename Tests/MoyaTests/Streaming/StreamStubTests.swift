import Foundation
import Moya
import Testing

/// Stubbed streams: the sample data as one chunk, a `SampleStream` played part by part, and
/// the same pipeline as the network (validation, plugins, interceptors).
@Suite("Stubbed streams")
struct StreamStubTests {
    private struct Feed: TargetType {
        var baseURL: URL { URL(string: "https://api.example.test")! }
        var path: String { "/feed" }
        var method: Moya.Method { .get }
        var task: Moya.Task { .requestPlain }
        var headers: [String: String]? { nil }
        var sampleData: Data { Data("data: sample\n\n".utf8) }
        var validationType: ValidationType { .successCodes }
    }

    private func provider(
        stream: SampleStream? = nil,
        plugins: [PluginType] = [],
        interceptor: RequestInterceptor? = nil
    ) -> MoyaProvider<Feed> {
        MoyaProvider<Feed>(
            endpointClosure: { target in
                let endpoint = MoyaProvider.defaultEndpointMapping(for: target)
                guard let stream else { return endpoint }
                return endpoint.copy(sampleStreamClosure: { stream })
            },
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: plugins,
            interceptor: interceptor
        )
    }

    @Test func aStubbedStreamWithoutASampleStreamPlaysTheSampleDataAsOneChunk() async throws {
        let streamed = try await provider().stream(Feed())
        #expect(streamed.statusCode == 200)
        var chunks: [Data] = []
        for try await chunk in streamed.chunks {
            chunks.append(chunk)
        }
        #expect(chunks == [Data("data: sample\n\n".utf8)])
    }

    @Test func aSampleStreamPlaysItsEventsThenItsFailure() async throws {
        let events = [ServerSentEvent(data: "one"), ServerSentEvent(event: "two", data: "2", id: "2")]
        let failure = URLError(.networkConnectionLost)
        let stream = SampleStream.events(events, interval: 0.001).failing(with: failure)
        let plugin = StreamPluginRecorder()
        var received: [ServerSentEvent] = []
        do {
            for try await event in provider(stream: stream, plugins: [plugin]).events(Feed()) {
                received.append(event)
            }
            Issue.record("the failure was not played")
        } catch {
            guard case .underlying(let underlying, let response?) = error else {
                Issue.record("expected the played failure, got \(error)")
                return
            }
            #expect((underlying as? URLError)?.code == .networkConnectionLost)
            #expect(response.statusCode == 200)
        }
        #expect(received == events)
        guard case .failure? = await plugin.nextResult() else {
            Issue.record("plugins did not hear the failure")
            return
        }
    }

    @Test func theHeadersOfASampleStreamReachTheResponse() async throws {
        let streamed = try await provider(stream: SampleStream.events([])).stream(Feed())
        #expect(streamed.response?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
    }

    @Test func aRefusedStubbedStatusThrowsAsOverTheNetwork() async throws {
        let stream = SampleStream(statusCode: 500, parts: [.chunk(Data("oops".utf8))])
        do {
            _ = try await provider(stream: stream).stream(Feed())
            Issue.record("a 500 was accepted")
        } catch {
            guard case .underlying(MoyaError.statusCode(let response), _) = error else {
                Issue.record("expected a status code error, got \(error)")
                return
            }
            #expect(response.data == Data("oops".utf8))
        }
    }

    @Test func aPluginsProcessDoesNotTurnAStreamsFailureIntoSuccess() async throws {
        struct Forgiving: PluginType {
            func process(
                _ result: Result<Moya.Response, MoyaError>,
                target: TargetType
            ) -> Result<Moya.Response, MoyaError> {
                .success(Moya.Response(statusCode: 200, data: Data()))
            }
        }
        let stream = SampleStream(statusCode: 500, parts: [])
        do {
            _ = try await provider(stream: stream, plugins: [Forgiving()]).stream(Feed())
            Issue.record("a 500 was accepted")
        } catch {
            guard case .underlying(MoyaError.statusCode(let response), _) = error else {
                Issue.record("expected the status code error itself, got \(error)")
                return
            }
            #expect(response.statusCode == 500)
        }
    }

    @Test func theInterceptorAdaptsAndRetriesAStream() async throws {
        struct Retrying: RequestInterceptor {
            let attempts = Synchronized<[String?]>([])
            func adapt(_ request: URLRequest, for target: TargetType) async throws -> URLRequest {
                var request = request
                request.setValue("secret", forHTTPHeaderField: "Authorization")
                return request
            }
            func retry(
                _ request: URLRequest,
                for target: TargetType,
                attempt: Int,
                dueTo result: Result<Moya.Response, MoyaError>
            ) async -> RetryResult {
                attempts.update { $0.append(request.value(forHTTPHeaderField: "Authorization")) }
                return attempt < 3 ? .retry : .doNotRetry
            }
        }
        let interceptor = Retrying()
        let plugin = StreamPluginRecorder()
        let streamed = try await provider(plugins: [plugin], interceptor: interceptor).stream(Feed())
        for try await _ in streamed.chunks {}
        #expect(interceptor.attempts.update { $0 } == ["secret", "secret", "secret"])
        // One request to plugins, however many attempts.
        _ = await plugin.nextResult()
        #expect(plugin.log.all == ["willSend", "didReceive"])
    }

    @Test func readingTheChunksTwiceThrowsInsteadOfTrapping() async throws {
        let streamed = try await provider().stream(Feed())
        for try await _ in streamed.chunks {}
        await #expect(throws: MoyaError.self) {
            for try await _ in streamed.chunks {}
        }
    }

    @Test func aNetworkErrorSampleFailsTheStreamBeforeTheHead() async throws {
        let provider = MoyaProvider<Feed>(
            endpointClosure: { target in
                Endpoint(
                    url: URL(target: target).absoluteString,
                    sampleResponseClosure: {
                        .networkError(NSError(domain: NSURLErrorDomain, code: NSURLErrorNotConnectedToInternet))
                    },
                    method: .get,
                    task: .requestPlain
                )
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
        await #expect(throws: MoyaError.self) {
            _ = try await provider.stream(Feed())
        }
    }
}

/// The logger and streams: each chunk is an entry when bodies are logged.
@Suite("Logging streams")
struct StreamLoggingTests {
    private func chunksLogged(with options: LogOptions) async throws -> [String] {
        let (logger, log) = LoggerFixture.logger(options)
        let provider = MoyaProvider<PipelineTarget>(
            endpointClosure: { target in
                MoyaProvider.defaultEndpointMapping(for: target).copy(sampleStreamClosure: {
                    SampleStream(parts: [.chunk(Data("one".utf8)), .chunk(Data("two".utf8))])
                })
            },
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [logger]
        )
        let streamed = try await provider.stream(.zen)
        for try await _ in streamed.chunks {}
        return log.all.filter { $0.hasPrefix("Response Chunk") }
    }

    @Test func aVerboseLoggerLogsEveryChunkAsItsReaderReceivesIt() async throws {
        #expect(try await chunksLogged(with: .verbose) == ["Response Chunk: one", "Response Chunk: two"])
    }

    @Test func theDefaultLoggerLogsNoChunk() async throws {
        #expect(try await chunksLogged(with: .default).isEmpty)
    }
}
