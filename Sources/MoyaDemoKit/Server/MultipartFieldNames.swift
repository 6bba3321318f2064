import Foundation

/// Reads the field names of a `multipart/form-data` body, enough for the embedded server to
/// say what it received. Not a full parser: the demo's parts are its own.
enum MultipartFieldNames {
    /// The boundary named by a `multipart/form-data; boundary=...` content type.
    static func boundary(inContentType contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    /// The `name` of every part's `Content-Disposition`, in order.
    static func names(in body: Data, boundary: String) -> [String] {
        // Headers are ASCII; decoding the whole body leniently keeps binary parts harmless.
        let text = String(decoding: body, as: UTF8.self)
        return text.components(separatedBy: "--\(boundary)").compactMap { part in
            guard let disposition = part.range(of: "Content-Disposition: form-data; name=\"") else {
                return nil
            }
            let rest = part[disposition.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { return nil }
            return String(rest[..<end])
        }
    }
}
