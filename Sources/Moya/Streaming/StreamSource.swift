import AsyncHTTPClient
import Foundation

/// Opens one attempt of a streamed request: the network (`NetworkStreamSource`) or a stub
/// (`StubStreamSource`).
///
/// The contract: `open` returns once the head has arrived, or the attempt failed before it
/// (as a `MoyaError`, transport faults being `NSURLErrorDomain` errors as in `Transport`).
/// Cancelling the calling task ends the attempt. After the head, the body flows through the
/// returned chunks; the source tells `report` when the chunks' channel terminates, and stops
/// its transfer when the reader leaves (the chunks are dropped unread, the loop is left, or
/// its task cancelled).
protocol StreamSource: Sendable {
    func open(_ request: URLRequest, endpoint: Endpoint, report: StreamReport) async -> Result<OpenedStream, MoyaError>
}

/// An attempt whose head has arrived.
struct OpenedStream: Sendable {
    /// The head, as a response with an empty body.
    var head: Response
    /// The body; dropping it unread ends the transfer.
    var chunks: ResponseChunks
}

/// The AsyncHTTPClient request for a streamed request: as for any request, the body comes
/// from the endpoint's task (bytes, a file, multipart parts), so a stream can follow an upload.
enum StreamRequestBuilder {
    static func makeRequest(
        _ request: URLRequest,
        endpoint: Endpoint,
        sessionHeaders: [String: String]
    ) throws -> HTTPClient.Request {
        var urlRequest = request
        let body = try RequestBody.forTask(endpoint.task, of: &urlRequest, endpointMethod: endpoint.method)
        return try HTTPRequestConversion.makeRequest(
            urlRequest,
            sessionHeaders: sessionHeaders,
            body: body?.makeClientBody()
        )
    }
}
