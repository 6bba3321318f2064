import Foundation
import FuzzSupport
@testable import Moya

/// The multipart encoder: for in-memory parts, the body's announced length is its exact size,
/// and a small `multipart/form-data` parser reads back, with the boundary it finds in the
/// `Content-Type`, every part's name, file name, type and bytes, as the encoder documents
/// them (quotes and line breaks in names percent-encoded, line breaks dropped from types).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let settings = input.byte()

    // The request's own Content-Type, which may name a boundary. The pipeline validates
    // headers before the encoder sees them, so an illegal value never gets here.
    var requestContentType: String?
    switch settings % 4 {
    case 0: requestContentType = nil
    case 1: requestContentType = "multipart/form-data; boundary=" + input.string()
    case 2: requestContentType = input.string()
    default: requestContentType = "multipart/form-data; charset=utf-8; boundary=\"" + input.string() + "\""
    }
    if let value = requestContentType, HeaderValidation.problem(name: "Content-Type", value: value) != nil {
        requestContentType = nil
    }

    var parts: [MultipartFormData] = []
    for _ in 0..<input.int(below: 6) {
        let flags = input.byte()
        let name = input.string()
        let fileName = flags & 1 != 0 ? input.string() : nil
        let mimeType = flags & 2 != 0 ? input.string() : nil
        let data = Data(input.chunk())
        parts.append(MultipartFormData(provider: .data(data), name: name, fileName: fileName, mimeType: mimeType))
    }

    let encoder = MultipartEncoder(boundary: MultipartEncoder.boundary(forContentType: requestContentType))
    let body: RequestBody
    do {
        body = try encoder.encode(parts)
    } catch {
        propertyFailed("encoding in-memory parts threw \(error)")
    }

    var bytes = Data()
    for segment in body.segments {
        guard case .bytes(let data) = segment else { propertyFailed("an in-memory part became a \(segment) segment") }
        bytes.append(data)
    }
    check(body.length == UInt64(bytes.count), "the body announces \(body.length) bytes but holds \(bytes.count)")
    check(body.makeClientBody().contentLength == Int64(bytes.count), "the client body's length is not \(bytes.count)")

    // The Content-Type the request is sent with must itself be a legal header value.
    let contentType = encoder.contentType
    if let problem = HeaderValidation.problem(name: "Content-Type", value: contentType) {
        propertyFailed("the multipart Content-Type is not a legal header value: \(problem)")
    }
    guard let boundary = boundaryParameter(of: contentType) else {
        propertyFailed("no boundary parameter can be read from \(contentType.debugDescription)")
    }
    check(boundary == Array(encoder.boundary.utf8),
        "a server reads the boundary \(String(decoding: boundary, as: UTF8.self).debugDescription) from \(contentType.debugDescription), but the body uses \(encoder.boundary.debugDescription)")

    // A part whose bytes hold the delimiter cannot be told apart from the parts after it:
    // that is the nature of multipart, and a random boundary makes it practically impossible.
    let delimiter = Array("\r\n--".utf8) + boundary
    if parts.contains(where: { part in
        guard case .data(let data) = part.provider else { return false }
        // Right after the part's blank line, a leading "--boundary" also reads as a delimiter.
        return Array(data).firstRange(of: delimiter) != nil || Array(data).starts(with: Array("--".utf8) + boundary)
    }) {
        return 0
    }

    let parsed: [ParsedPart]
    do {
        parsed = try parseMultipart(Array(bytes), boundary: boundary)
    } catch {
        propertyFailed("the body does not parse: \(error)\n\(String(decoding: bytes, as: UTF8.self).debugDescription)")
    }
    check(parsed.count == parts.count, "\(parts.count) parts were encoded, \(parsed.count) read back")
    for (part, read) in zip(parts, parsed) {
        guard case .data(let data) = part.provider else { continue }
        check(read.name == Array(escape(part.name).utf8), "name \(part.name.debugDescription) read back as \(String(decoding: read.name ?? [], as: UTF8.self).debugDescription)")
        check(read.fileName == part.fileName.map { Array(escape($0).utf8) }, "file name \(String(describing: part.fileName)) read back wrong")
        let expectedType = part.mimeType.map { String(String.UnicodeScalarView($0.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })) } ?? (part.fileName != nil ? "application/octet-stream" : nil)
        check(read.contentType == expectedType.map { Array($0.utf8) }, "type \(String(describing: part.mimeType)) read back wrong")
        check(read.data == Array(data), "the bytes of part \(part.name.debugDescription) read back wrong")
    }
    return 0
}

/// The documented escaping of names and file names.
private func escape(_ value: String) -> String {
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

private let tokenBytes = Set(Array("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8))

/// The `boundary` parameter as RFC 9110 reads it: a token, or a quoted string with `\` escapes.
private func boundaryParameter(of contentType: String) -> [UInt8]? {
    let bytes = Array(contentType.utf8)
    guard let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) else { return nil }
    var index = semicolon
    while index < bytes.count {
        // Parameters: OWS ";" OWS name "=" value.
        guard bytes[index] == UInt8(ascii: ";") else { return nil }
        index += 1
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        let nameStart = index
        while index < bytes.count, tokenBytes.contains(bytes[index]) { index += 1 }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        var value: [UInt8] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            var closed = false
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") { closed = true; break }
                if byte == UInt8(ascii: "\\") {
                    guard index < bytes.count else { return nil }
                    value.append(bytes[index])
                    index += 1
                } else {
                    value.append(byte)
                }
            }
            guard closed else { return nil }
        } else {
            let valueStart = index
            while index < bytes.count, tokenBytes.contains(bytes[index]) { index += 1 }
            value = Array(bytes[valueStart..<index])
            guard !value.isEmpty else { return nil }
        }
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        if name == "boundary" { return index == bytes.count || bytes[index] == UInt8(ascii: ";") ? value : nil }
    }
    return nil
}

private struct ParsedPart {
    var name: [UInt8]?
    var fileName: [UInt8]?
    var contentType: [UInt8]?
    var data: [UInt8]
}

private struct ParseError: Error, CustomStringConvertible {
    let description: String
}

/// A strict reader of `multipart/form-data` (RFC 7578): no preamble, no epilogue, CRLF line
/// ends, `Content-Disposition: form-data; name="..."[; filename="..."]` and an optional
/// `Content-Type` per part. Quoted values end at the next quote, as browsers write them.
private func parseMultipart(_ body: [UInt8], boundary: [UInt8]) throws -> [ParsedPart] {
    let dashBoundary = Array("--".utf8) + boundary
    let delimiter = Array("\r\n".utf8) + dashBoundary
    let crlf = Array("\r\n".utf8)
    guard body.starts(with: dashBoundary) else { throw ParseError(description: "no leading boundary") }
    var index = dashBoundary.count
    var parts: [ParsedPart] = []
    while true {
        let rest = body[index...]
        if rest.elementsEqual(Array("--\r\n".utf8)) { return parts }
        guard rest.starts(with: crlf) else { throw ParseError(description: "no CRLF after a boundary at \(index)") }
        index += 2
        var part = ParsedPart(data: [])
        var sawDisposition = false
        // Header lines up to an empty line.
        while true {
            guard let lineEnd = body[index...].firstRange(of: crlf)?.lowerBound else { throw ParseError(description: "unterminated header") }
            let line = Array(body[index..<lineEnd])
            index = lineEnd + 2
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), line[colon...].starts(with: Array(": ".utf8)) else {
                throw ParseError(description: "malformed header line")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = Array(line[(colon + 2)...])
            switch name {
            case "content-disposition":
                guard !sawDisposition else { throw ParseError(description: "two dispositions") }
                sawDisposition = true
                try parseDisposition(value, into: &part)
            case "content-type":
                guard part.contentType == nil else { throw ParseError(description: "two types") }
                part.contentType = value
            default:
                throw ParseError(description: "unexpected header \(name)")
            }
        }
        guard sawDisposition else { throw ParseError(description: "a part has no disposition") }
        guard let end = body[index...].firstRange(of: delimiter) else { throw ParseError(description: "unterminated part") }
        part.data = Array(body[index..<end.lowerBound])
        parts.append(part)
        index = end.upperBound
    }
}

private func parseDisposition(_ value: [UInt8], into part: inout ParsedPart) throws {
    let prefix = Array("form-data".utf8)
    guard value.starts(with: prefix) else { throw ParseError(description: "not form-data") }
    var index = prefix.count
    while index < value.count {
        guard value[index...].starts(with: Array("; ".utf8)) else { throw ParseError(description: "bad parameter separator") }
        index += 2
        guard let equals = value[index...].firstIndex(of: UInt8(ascii: "=")) else { throw ParseError(description: "parameter without =") }
        let name = String(decoding: value[index..<equals], as: UTF8.self)
        index = equals + 1
        guard index < value.count, value[index] == UInt8(ascii: "\"") else { throw ParseError(description: "unquoted parameter") }
        index += 1
        guard let close = value[index...].firstIndex(of: UInt8(ascii: "\"")) else { throw ParseError(description: "unclosed quote") }
        let parameter = Array(value[index..<close])
        index = close + 1
        switch name {
        case "name" where part.name == nil: part.name = parameter
        case "filename" where part.fileName == nil: part.fileName = parameter
        default: throw ParseError(description: "unexpected parameter \(name)")
        }
    }
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver, calling `fuzz` with each input.
@_cdecl("FuzzMultipart_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { data, count in
        fuzz(data.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!, count)
    }
}
