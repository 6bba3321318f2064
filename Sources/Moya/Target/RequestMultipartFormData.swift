import Foundation

/// Moya's name for the builder of a whole `multipart/form-data` body: an `endpointClosure`
/// or a test appends parts to it and reads the encoded body back.
///
/// In Moya 15 this is Alamofire's `MultipartFormData`; here it collects this package's
/// ``MultipartFormData`` parts, so that what it builds can be sent as
/// `Task.uploadMultipart(formData.parts)` and is encoded exactly as the provider sends it.
/// Not `Sendable`, as Alamofire's is not: fill it in one place, then hand over its `parts`.
public final class RequestMultipartFormData {
    /// The boundary between parts.
    public let boundary: String

    /// The parts appended so far, in order.
    public private(set) var parts: [MultipartFormData] = []

    /// Creates an empty body.
    ///
    /// - Parameter boundary: The boundary to use; a random one by default.
    public init(boundary: String? = nil) {
        self.boundary = boundary ?? MultipartEncoder.boundary(forContentType: nil)
    }

    /// The `Content-Type` header value naming this body's boundary.
    public var contentType: String {
        MultipartEncoder(boundary: boundary).contentType
    }

    /// Appends bytes held in memory.
    public func append(_ data: Data, withName name: String, fileName: String? = nil, mimeType: String? = nil) {
        parts.append(MultipartFormData(provider: .data(data), name: name, fileName: fileName, mimeType: mimeType))
    }

    /// Appends a file, announced under its own last path component.
    public func append(_ fileURL: URL, withName name: String) {
        parts.append(MultipartFormData(provider: .file(fileURL), name: name))
    }

    /// Appends a file under the given file name and type.
    public func append(_ fileURL: URL, withName name: String, fileName: String, mimeType: String) {
        parts.append(MultipartFormData(provider: .file(fileURL), name: name, fileName: fileName, mimeType: mimeType))
    }

    /// Appends `length` bytes of a stream, read when the body is encoded or sent.
    public func append(
        _ stream: InputStream,
        withLength length: UInt64,
        name: String,
        fileName: String,
        mimeType: String
    ) {
        parts.append(
            MultipartFormData(provider: .stream(stream, length), name: name, fileName: fileName, mimeType: mimeType)
        )
    }

    /// Appends one of Moya's parts as it is.
    public func append(_ part: MultipartFormData) {
        parts.append(part)
    }

    /// Appends Moya's parts in order, as Moya's provider does before it sends them.
    func applyMoyaMultipartFormData(_ multipartBody: [MultipartFormData]) {
        parts.append(contentsOf: multipartBody)
    }

    /// The whole body in memory, exactly as the provider would send it.
    ///
    /// Reads every file and stream part (a stream can then not be read again). Prefer
    /// `writeEncodedData(to:)` for large files, or send `parts` and let the provider stream them.
    ///
    /// - Throws: A file that cannot be read, a stream that ends before its length or was read
    ///   before.
    public func encode() throws -> Data {
        var encoded = Data()
        try MultipartEncoder(boundary: boundary).encode(parts).readAll { encoded.append($0) }
        return encoded
    }

    /// Writes the body to a new file at `fileURL`, a chunk at a time.
    ///
    /// - Throws: `CocoaError(.fileWriteFileExists)` if something is already at `fileURL` (it
    ///   is never replaced), or an error reading a part or writing the file; a partly written
    ///   file is removed.
    public func writeEncodedData(to fileURL: URL) throws {
        let body = try MultipartEncoder(boundary: boundary).encode(parts)
        guard !FileManager.default.fileExists(atPath: fileURL.path) else {
            throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: fileURL.path])
        }
        guard FileManager.default.createFile(atPath: fileURL.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: fileURL.path])
        }
        let handle = try FileHandle(forWritingTo: fileURL)
        do {
            try body.readAll { try handle.write(contentsOf: $0) }
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: fileURL)
            throw error
        }
    }
}
