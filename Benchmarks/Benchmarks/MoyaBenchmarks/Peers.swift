import AsyncHTTPClient
import BenchmarkAPI
import Foundation
import Moya
import MoyaOpenAPI
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client a Linux user could pick instead of Moya, doing the network benchmarks' work: the
/// peers are measured beside Moya and raw AsyncHTTPClient, on the same server.
protocol PeerClient: Sendable {
    /// `GET /json`, its body received whole (and, for a generated client, decoded).
    func getJSON() async throws

    /// `POST /echo` with the 64 KB JSON body, its small answer received.
    func postJSON() async throws
}

/// `URLSession` from FoundationNetworking (libcurl on Linux), used directly as a program that
/// needs no package would: a session with the default configuration, as `URLSession.shared`
/// has (6 connections per host, `URLCache.shared`, cookies), and the async `data(for:)`.
///
/// Each call builds its `URLRequest` from a `URL` made once, as such a program keeps its
/// endpoints' URLs; the POST body is the same `Data` Moya sends.
struct URLSessionPeer: PeerClient {
    let session: URLSession
    let jsonURL: URL
    let echoURL: URL
    let body: Data

    /// A session with `URLSessionConfiguration.default`, whose `httpMaximumConnectionsPerHost`
    /// is `connectionsPerHost` when one is given (the concurrency curve), else left at its 6.
    ///
    /// `URLCache.shared` stays on, as in the default configuration: nginx's answers carry no
    /// `Cache-Control`, and a check against a server numbering its answers showed every
    /// `data(for:)` reaching it, so the cache never answers in place of the server.
    init(baseURL: URL, connectionsPerHost: Int?) {
        let configuration = URLSessionConfiguration.default
        if let connectionsPerHost {
            configuration.httpMaximumConnectionsPerHost = connectionsPerHost
        }
        session = URLSession(configuration: configuration)
        jsonURL = baseURL.appendingPathComponent("json")
        echoURL = baseURL.appendingPathComponent("echo")
        body = Payloads.json64KB
    }

    func getJSON() async throws {
        var request = URLRequest(url: jsonURL)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        try Self.check(try await session.data(for: request))
    }

    func postJSON() async throws {
        var request = URLRequest(url: echoURL)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = body
        try Self.check(try await session.data(for: request))
    }

    private static func check(_ answer: (Data, URLResponse)) throws {
        let status = (answer.1 as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200, !answer.0.isEmpty else {
            throw BenchmarkFailure("URLSession: HTTP \(status), \(answer.0.count) bytes")
        }
    }
}

/// The client swift-openapi-generator made from `Shared/BenchmarkAPI/openapi.yaml`, used as its users use
/// it: `getJSON` decodes the nine records of `GET /json`, `postJSON` encodes the records of the
/// 64 KB body on every call and decodes `{"ok":true}`.
///
/// JSON is encoded without the runtime's default `.prettyPrinted` and `.sortedKeys`, so that
/// the body on the wire has the size of the one Moya and the baselines send: the same records,
/// with the same bytes but for the order of each object's keys (`JSONEncoder` without
/// `.sortedKeys` does not keep one).
struct OpenAPIPeer: PeerClient {
    let client: Client
    let records: [Components.Schemas.Record]

    init(baseURL: URL, transport: any ClientTransport) {
        client = Client(
            serverURL: baseURL,
            configuration: Configuration(jsonEncodingOptions: []),
            transport: transport
        )
        records = Payloads.records(count: Payloads.json64KBRecordCount).map { record in
            Components.Schemas.Record(
                id: record.id,
                name: record.name,
                email: record.email,
                active: record.active,
                score: record.score,
                tags: record.tags
            )
        }
        // The runtime's encoder is a `JSONEncoder` with these options.
        precondition(
            (try? JSONEncoder().encode(records))?.count == Payloads.json64KB.count,
            "The generated client's POST body is not the size of the 64 KB body the others send."
        )
    }

    /// On swift-openapi-async-http-client's transport over `client`, the baselines' client,
    /// with the transport's default one-minute timeout.
    static func overAsyncHTTPClient(baseURL: URL, client: HTTPClient) -> OpenAPIPeer {
        let configuration = OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport.Configuration(client: client)
        return OpenAPIPeer(
            baseURL: baseURL,
            transport: OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport(configuration: configuration)
        )
    }

    /// On `MoyaTransport` with its default configuration, through a provider with no plugins
    /// on `session`: the session whose `HTTPClient` the other contenders use.
    static func overMoya(baseURL: URL, session: Session) -> OpenAPIPeer {
        OpenAPIPeer(
            baseURL: baseURL,
            transport: MoyaTransport(provider: MoyaProvider<OpenAPIOperation>(session: session))
        )
    }

    func getJSON() async throws {
        let records = try await client.getJSON().ok.body.json
        guard !records.isEmpty else { throw BenchmarkFailure("OpenAPI: no records") }
    }

    func postJSON() async throws {
        let answer = try await client.postJSON(body: .json(records)).ok.body.json
        guard answer.ok else { throw BenchmarkFailure("OpenAPI: the server did not answer ok") }
    }
}
