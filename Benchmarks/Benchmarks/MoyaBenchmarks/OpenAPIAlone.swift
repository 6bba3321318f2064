import Benchmark
import BenchmarkAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The generated OpenAPI client's own cost, with no network: the same calls as the OpenAPI
/// peers (`getJSON()` decoding nine records, `postJSON` encoding the 64 KB of records) on a
/// transport that answers from memory with the bytes nginx sends.
///
/// Beside raw AsyncHTTPClient, which neither encodes nor decodes, the OpenAPI peers pay their
/// codec; this tells how much of their CPU per request it is.
func openAPIAloneBenchmarks(_ configuration: Benchmark.Configuration) {
    Benchmark("OpenAPI client alone, GET 1 KB JSON · in memory", configuration: configuration) { benchmark, peer in
        benchmark.measurement(requestsMetric, 8192)
        for _ in 0..<8192 {
            try await peer.getJSON()
        }
    } setup: {
        OpenAPIPeer(baseURL: Network.unusedURL, transport: InMemoryTransport())
    }

    Benchmark("OpenAPI client alone, POST 64 KB JSON · in memory", configuration: configuration) { benchmark, peer in
        benchmark.measurement(requestsMetric, 256)
        for _ in 0..<256 {
            try await peer.postJSON()
        }
    } setup: {
        OpenAPIPeer(baseURL: Network.unusedURL, transport: InMemoryTransport())
    }
}

/// Answers `getJSON` with the JSON `run.sh` has nginx serve at `/json`, and `postJSON` with
/// nginx's `{"ok":true}`, after reading the request body whole, as a transport sends it.
struct InMemoryTransport: ClientTransport {
    /// The bytes of nginx's `/json`: nine times the record `run.sh` writes.
    private static let json: [UInt8] = {
        let record =
            #"{"id":1,"name":"user 1","email":"user1@example.com","active":true,"score":1.5,"#
            + #""tags":["alpha","beta","gamma"]}"#
        return Array(("[" + Array(repeating: record, count: 9).joined(separator: ",") + "]").utf8)
    }()
    private static let ok = Array(#"{"ok":true}"#.utf8)

    func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if let body {
            blackHole(try await Data(collecting: body, upTo: 1 << 20))
        }
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "application/json"
        return (response, HTTPBody(operationID == Operations.PostJSON.id ? Self.ok : Self.json))
    }
}
