import Foundation

/// Turns Moya's multipart parts into a streamed `multipart/form-data` body (RFC 7578).
///
/// Only the part headers and boundaries are built in memory; file and stream parts are read
/// while the body is sent. The total length is known before sending.
struct MultipartEncoder {
    let boundary: String

    /// A random boundary, or the one the request's `Content-Type` already names.
    static func boundary(forContentType contentType: String?) -> String {
        if let contentType, contentType.lowercased().hasPrefix("multipart/form-data"),
            let range = contentType.range(of: "boundary=", options: .caseInsensitive)
        {
            let value = contentType[range.upperBound...].split(separator: ";").first.map(String.init) ?? ""
            let trimmed = value.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
            if !trimmed.isEmpty { return trimmed }
        }
        return "moya.boundary.\(UUID().uuidString.lowercased())"
    }

    /// The boundary as a token when it is one, else as a quoted string (RFC 9110, section
    /// 5.6.6), so that a server reads back exactly the boundary the body uses.
    var contentType: String {
        guard boundary.isEmpty || !boundary.utf8.allSatisfy(HeaderValidation.isTokenByte) else {
            return "multipart/form-data; boundary=\(boundary)"
        }
        var quoted = "\""
        for scalar in boundary.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { quoted += "\\" }
            quoted.unicodeScalars.append(scalar)
        }
        return "multipart/form-data; boundary=\(quoted)\""
    }

    func encode(_ parts: [MultipartFormData]) throws -> RequestBody {
        var segments: [RequestBody.Segment] = []
        for part in parts {
            var fileName = part.fileName
            let content: RequestBody.Segment
            switch part.provider {
            case .data(let data):
                content = .bytes(data)
            case .file(let url):
                content = .file(url, length: try UploadableFile.size(of: url))
                if fileName == nil { fileName = url.lastPathComponent }
            case let .stream(stream, length):
                // An `InputStream` can be read once. A retry or a challenge answer would send
                // what is left of it (nothing) under the full length, so a stream an earlier
                // attempt opened is refused before anything is sent. Spooling every stream to
                // disk in case of a retry would double its I/O and cannot work for a live one.
                guard stream.streamStatus == .notOpen else {
                    throw MoyaClientError.uploadStreamAlreadyRead(partName: part.name)
                }
                content = .stream(SequentialReader(source: .stream(stream)), length: length)
            }
            segments.append(.bytes(Data(header(for: part, fileName: fileName).utf8)))
            segments.append(content)
            segments.append(.bytes(Data("\r\n".utf8)))
        }
        segments.append(.bytes(Data("--\(boundary)--\r\n".utf8)))
        return RequestBody(segments: segments)
    }

    private func header(for part: MultipartFormData, fileName: String?) -> String {
        var disposition = "form-data; name=\"\(Self.escape(part.name))\""
        if let fileName {
            disposition += "; filename=\"\(Self.escape(fileName))\""
        }
        var header = "--\(boundary)\r\nContent-Disposition: \(disposition)\r\n"
        if let mimeType = part.mimeType ?? (fileName != nil ? "application/octet-stream" : nil) {
            header += "Content-Type: \(Self.stripLineBreaks(mimeType))\r\n"
        }
        return header + "\r\n"
    }

    /// Quotes and line breaks in names are percent-encoded, as browsers do. Works on scalars,
    /// so that the `"\r\n"` character is escaped as both of its line breaks.
    static func escape(_ value: String) -> String {
        var result = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Works on scalars: `"\r\n"` is a single `Character`, equal to neither `"\r"` nor `"\n"`.
    private static func stripLineBreaks(_ value: String) -> String {
        var result = String.UnicodeScalarView()
        result.append(contentsOf: value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
        return String(result)
    }
}
