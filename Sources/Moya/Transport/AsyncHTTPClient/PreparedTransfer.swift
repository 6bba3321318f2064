import AsyncHTTPClient
import Foundation

/// The AsyncHTTPClient request for an exchange, with its body and download destination, built
/// anew for every trip (a retry sends the body again) by either transport; a stream has no
/// destination to use.
struct PreparedTransfer {
    var request: HTTPClient.Request
    /// The body's size; `nil` without a body.
    var uploadLength: Int64?
    /// Whether the task is an upload, whose progress counts the bytes sent.
    var reportsUploadProgress: Bool
    /// The user's closure, called once on the thread pool when the download is complete.
    var destination: UserValue<DownloadDestination>?

    init(exchange: TransportExchange, sessionHeaders: SessionHeaders) throws {
        var urlRequest = exchange.request
        let task = exchange.endpoint.task
        let body = try RequestBody.forTask(task, of: &urlRequest, endpointMethod: exchange.endpoint.method)
        reportsUploadProgress = RequestBody.isUpload(task)
        switch task {
        case .downloadDestination(let target), .downloadParameters(_, _, let target):
            destination = UserValue(target)
        default:
            destination = nil
        }

        uploadLength = body.map { Int64($0.length) }
        request = try HTTPRequestConversion.makeRequest(
            urlRequest,
            sessionHeaders: sessionHeaders,
            body: body?.makeClientBody()
        )
    }
}
