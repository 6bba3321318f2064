import Foundation
import Moya

/// Where the fixture of one request lives, relative to the recorder's directory:
/// `<TargetTypeName>/<case-or-path>-<METHOD>-<hash>.json`.
///
/// The hash covers the method, the URL's path and query (sorted) and the body (JSON with sorted
/// keys), all redacted. Scheme, host and port are left out, so fixtures recorded against one
/// server replay against another (a local test server on a random port, say); headers are left
/// out, so a fresh token does not make a recording stale.
struct FixtureName: Hashable, Sendable {
    /// The path below the fixture directory, with `/` separators.
    let relativePath: String

    init(target: TargetType, request: URLRequest, redaction: Redaction) {
        let target = Self.unwrap(target)
        let method = (request.httpMethod ?? "GET").uppercased()
        let typeName = Self.sanitize(String(describing: type(of: target)), fallback: "Target")
        let label = Self.sanitize(Self.label(of: target), fallback: "root")
        let hash = Self.hash(Self.identity(of: request, method: method, target: target, redaction: redaction))
        relativePath = "\(typeName)/\(label)-\(Self.sanitize(method, fallback: "GET"))-\(hash).json"
    }

    /// The target inside any number of `MultiTarget`s.
    private static func unwrap(_ target: TargetType) -> TargetType {
        var current = target
        while let multi = current as? MultiTarget {
            current = multi.target
        }
        return current
    }

    /// An enum target's case name; otherwise the target's path.
    private static func label(of target: TargetType) -> String {
        let mirror = Mirror(reflecting: target)
        if mirror.displayStyle == .enum {
            if let label = mirror.children.first?.label {
                return label
            }
            return String(describing: target)
        }
        return target.path
    }

    /// What tells two requests apart, written out as bytes to hash.
    private static func identity(
        of request: URLRequest,
        method: String,
        target: TargetType,
        redaction: Redaction
    ) -> Data {
        var text = method + "\n"
        if let url = request.url {
            text += canonicalPathAndQuery(redaction.redact(url: url))
        }
        text += "\n"
        var data = Data(text.utf8)
        if let body = request.httpBody {
            let redacted = redaction.redact(body: body, contentType: request.value(forHTTPHeaderField: "Content-Type"))
            data.append(canonicalBody(redacted))
        }
        data.append(Data(uploadDescription(of: target.task).utf8))
        return data
    }

    private static func canonicalPathAndQuery(_ url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        var text = components.percentEncodedPath
        if let items = components.percentEncodedQueryItems {
            text += "?" + items.map { "\($0.name)=\($0.value ?? "")" }.sorted().joined(separator: "&")
        }
        return text
    }

    /// JSON is re-serialised with sorted keys: dictionary order changes from run to run.
    private static func canonicalBody(_ body: Data) -> Data {
        guard let json = try? JSONSerialization.jsonObject(with: body, options: []),
            let sorted = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
        else { return body }
        return sorted
    }

    /// Uploads stream their bodies, so the request carries none: the parts' names tell them apart.
    private static func uploadDescription(of task: Moya.Task) -> String {
        switch task {
        case .uploadFile(let url):
            return "\nfile:" + url.lastPathComponent
        case .uploadMultipart(let parts), .uploadCompositeMultipart(let parts, _):
            return parts.map { part -> String in
                var line = "\npart:\(part.name):\(part.fileName ?? ""):\(part.mimeType ?? "")"
                switch part.provider {
                case .data(let data):
                    line += ":" + data.base64EncodedString()
                case .file(let url):
                    line += ":file:" + url.lastPathComponent
                case .stream(_, let length):
                    line += ":stream:\(length)"
                }
                return line
            }.joined()
        default:
            return ""
        }
    }

    /// 64-bit FNV-1a, folded to 32 bits: stable across runs and platforms, unlike `Hasher`.
    private static func hash(_ data: Data) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        let folded = UInt32(truncatingIfNeeded: value ^ (value >> 32))
        let hex = String(folded, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Keeps letters, digits, `-`, `_` and `.`; anything else becomes `_`. Never empty, never
    /// hidden, never longer than 64 characters.
    private static func sanitize(_ text: String, fallback: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let keep =
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
            if keep {
                result.unicodeScalars.append(scalar)
            } else if !result.hasSuffix("_") {
                result += "_"
            }
        }
        let trimmed = result.trimmingCharacters(in: CharacterSet(charactersIn: "_."))
        let short = String(trimmed.prefix(64))
        return short.isEmpty ? fallback : short
    }
}
