import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Moya
import NIOCore
import Testing

@Suite("Requests over the network")
struct NetworkRequestTests {
    let queue = DispatchQueue(label: "network-request-tests")

    @Test func getReturnsStatusBodyHeadersAndRequest() async throws {
        try await TestServer.with({ router in
            router.get("zen") { _, _ -> Response in
                var headers = HTTPFields()
                headers.append(HTTPField(name: HTTPField.Name("X-Multi")!, value: "a"))
                headers.append(HTTPField(name: HTTPField.Name("X-Multi")!, value: "b"))
                return Response(
                    status: .ok,
                    headers: headers,
                    body: .init(byteBuffer: ByteBuffer(string: "Half measures"))
                )
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/zen"))
            #expect(response.statusCode == 200)
            #expect(try response.mapString() == "Half measures")
            #expect(response.response?.statusCode == 200)
            #expect(response.response?.value(forHTTPHeaderField: "X-Multi") == "a, b")
            #expect(response.request?.url?.path == "/zen")
        }
    }

    @Test func headersAndJSONBodyReachTheServer() async throws {
        try await TestServer.with({ router in
            router.post("echo") { request, _ -> Response in
                let body = try await request.body.collect(upTo: 1 << 20)
                var headers = HTTPFields()
                headers[.contentType] = request.headers[.contentType] ?? "none"
                headers[HTTPField.Name("X-Seen-Token")!] = request.headers[HTTPField.Name("X-Token")!] ?? "none"
                headers[HTTPField.Name("X-Seen-Agent")!] = request.headers[.userAgent] ?? "none"
                return Response(status: .created, headers: headers, body: .init(byteBuffer: body))
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/echo",
                method: .post,
                makeTask: {
                    .requestParameters(parameters: ["name": "moya", "stars": 15], encoding: JSONEncoding.default)
                },
                headers: ["X-Token": "abc"]
            )
            let response = try await provider.request(target)
            #expect(response.statusCode == 201)
            let json = try #require(try response.mapJSON() as? [String: Any])
            #expect(json["name"] as? String == "moya")
            #expect(response.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(response.response?.value(forHTTPHeaderField: "X-Seen-Token") == "abc")
            #expect(response.response?.value(forHTTPHeaderField: "X-Seen-Agent")?.contains("Moya/") == true)
        }
    }

    @Test func redirectIsFollowedAndTheFinalURLReported() async throws {
        try await TestServer.with({ router in
            router.get("old") { _, _ in Response(status: .found, headers: [.location: "/new"]) }
            router.get("new") { _, _ in "moved" }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let response = try await provider.request(DynamicTarget(baseURL: server.baseURL, path: "/old"))
            #expect(try response.mapString() == "moved")
            #expect(response.response?.url?.path == "/new")
        }
    }

    @Test func validationRejectsAServerErrorWithMoyasShape() async throws {
        try await TestServer.with({ router in
            router.get("broken") { _, _ in Response(status: .internalServerError) }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let target = DynamicTarget(baseURL: server.baseURL, path: "/broken", validationType: .successCodes)
            do {
                _ = try await provider.request(target)
                Issue.record("a 500 must fail validation")
            } catch {
                guard let error = error as? MoyaError, case .underlying(let inner, let response) = error,
                    case .statusCode? = inner as? MoyaError
                else {
                    Issue.record("expected .underlying(.statusCode), got \(error)")
                    return
                }
                #expect(response?.statusCode == 500)
            }
        }
    }

    @Test func refusedConnectionFailsAtOnceWithUnderlying() async throws {
        let provider = MoyaProvider<DynamicTarget>(session: Session(configuration: .init(connectTimeout: .seconds(30))))
        let started = ContinuousClock.now
        do {
            let response = try await provider.request(DynamicTarget(baseURL: TestServer.unreachableBaseURL, path: "/"))
            Issue.record("expected a refused connection, got \(response)")
        } catch {
            guard case .underlying(let inner, nil) = error else {
                Issue.record("expected .underlying without a response, got \(error)")
                return
            }
            #expect((inner as NSError).code == NSURLErrorCannotConnectToHost, "\(inner)")
        }
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func callbackAPIDeliversOnTheCallbackQueue() async throws {
        try await TestServer.with({ router in
            router.get("zen") { _, _ in "zen" }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let result = await provider.requestAndWait(
                DynamicTarget(baseURL: server.baseURL, path: "/zen"),
                callbackQueue: queue
            )
            let response = try result.get()
            #expect(response.statusCode == 200)
        }
    }

    @Test func cancellingAnInFlightRequestCompletesWithCancelled() async throws {
        let (arrived, arrivedContinuation) = AsyncStream<Void>.makeStream()
        try await TestServer.with({ router in
            router.get("slow") { _, _ -> Response in
                arrivedContinuation.yield()
                try await _Concurrency.Task.sleep(for: .seconds(30))
                return Response(status: .ok)
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>()
            let box = TokenBox()
            let result: Result<Moya.Response, MoyaError> = await withCheckedContinuation { continuation in
                box.token = provider.request(
                    DynamicTarget(baseURL: server.baseURL, path: "/slow"),
                    callbackQueue: queue
                ) {
                    continuation.resume(returning: $0)
                }
                _Concurrency.Task {
                    for await _ in arrived { break }
                    box.token?.cancel()
                }
            }
            guard case .failure(let error) = result else {
                Issue.record("expected a cancellation, got \(result)")
                return
            }
            #expect(error.isCancellation)
        }
    }
}
