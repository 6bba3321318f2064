import Foundation

extension RequestBody {
    /// The body an endpoint's task sends with `request`: a file, multipart parts (whose
    /// `Content-Type`, with its boundary, is set on `request`), or the request's own bytes.
    /// Every transfer builds its body here, so that each attempt, and a stream, reads the task
    /// afresh; `nil` for no body.
    static func forTask(_ task: Task, of request: inout URLRequest, endpointMethod: Method) throws -> RequestBody? {
        switch task {
        case .uploadFile(let url):
            do {
                return RequestBody(segments: [.file(url, length: try UploadableFile.size(of: url))])
            } catch {
                throw MoyaError.underlying(error, nil)
            }
        case .uploadMultipart(let parts), .uploadCompositeMultipart(let parts, _):
            try Endpoint.checkMultipartCanBeSent(parts, method: request.httpMethod ?? endpointMethod.rawValue)
            let encoder = MultipartEncoder(
                boundary: MultipartEncoder.boundary(forContentType: request.value(forHTTPHeaderField: "Content-Type"))
            )
            request.setValue(encoder.contentType, forHTTPHeaderField: "Content-Type")
            do {
                return try encoder.encode(parts)
            } catch {
                throw MoyaError.underlying(error, nil)
            }
        default:
            return request.httpBody.map { RequestBody(segments: [.bytes($0)]) }
        }
    }

    /// Whether the task is an upload, whose progress counts the bytes sent.
    static func isUpload(_ task: Task) -> Bool {
        switch task {
        case .uploadFile, .uploadMultipart, .uploadCompositeMultipart:
            return true
        default:
            return false
        }
    }
}
