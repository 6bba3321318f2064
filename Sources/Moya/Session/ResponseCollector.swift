import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Collects a response in memory and turns it into a Moya `Response`.
///
/// The body stays a `ByteBuffer` until the end, where it is copied once into `Data`.
final class ResponseCollector: HTTPClientResponseDelegate {
    typealias Response = Moya.Response

    private struct State {
        var url: URL?
        var head: HTTPResponseHead?
        var body = ByteBuffer()
    }

    private let request: URLRequest
    private let state = NIOLockedValueBox(State())

    init(request: URLRequest) {
        self.request = request
    }

    func didVisitURL(task: HTTPClient.Task<Response>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        state.withLockedValue { $0.url = request.url }
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLockedValue { $0.head = head }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        state.withLockedValue { state in
            var buffer = buffer
            state.body.writeBuffer(&buffer)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        let (url, head, body) = state.withLockedValue { ($0.url, $0.head, $0.body) }
        guard let head else {
            throw ResponseCollectorError.noResponseHead
        }
        let finalURL = url ?? request.url ?? URL(fileURLWithPath: "/")
        let data = Data(buffer: body, byteTransferStrategy: .noCopy)
        return Response(
            statusCode: Int(head.status.code),
            data: data,
            request: request,
            response: HTTPRequestConversion.makeHTTPURLResponse(head, url: finalURL)
        )
    }
}

/// The connection ended without a response.
enum ResponseCollectorError: Error {
    case noResponseHead
}
