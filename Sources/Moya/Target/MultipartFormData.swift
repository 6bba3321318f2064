import Foundation

/// One part of a "multipart/form-data" body.
///
/// A `Task.uploadMultipart` carries an array of parts. The provider streams the body: file and
/// stream parts are never read into memory as a whole.
public struct MultipartFormData: Hashable {
    /// Where the bytes of a part come from.
    public enum FormDataProvider: Hashable {
        /// Bytes held in memory.
        case data(Foundation.Data)
        /// The contents of a file, read while the body is sent.
        case file(URL)
        /// A stream of the given length in bytes, read while the body is sent.
        case stream(InputStream, UInt64)
    }

    /// Creates a part.
    ///
    /// - Parameters:
    ///   - provider: Where the part's bytes come from.
    ///   - name: The form field's name.
    ///   - fileName: The file name to announce, if any. For `.file` parts without one, the
    ///     file's last path component is used.
    ///   - mimeType: The part's content type, if any.
    public init(provider: FormDataProvider, name: String, fileName: String? = nil, mimeType: String? = nil) {
        self.provider = provider
        self.name = name
        self.fileName = fileName
        self.mimeType = mimeType
    }

    /// Where the part's bytes come from.
    public let provider: FormDataProvider

    /// The form field's name.
    public let name: String

    /// The file name announced in the part's `Content-Disposition`, if any.
    public let fileName: String?

    /// The part's `Content-Type`, if any.
    public let mimeType: String?
}
