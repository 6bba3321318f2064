import Crypto
import Foundation

/// The disk format of a stored response: a versioned binary layout, ending with a SHA-256 of
/// everything before it, so that a truncated, corrupt or foreign file is recognised and never
/// trusted.
///
/// ```
/// "MHC1"  key digest (32)  status (2)  request time (8)  response time (8)
/// final URL (4 + n)  salt (1 + n)  variant count (2) [name (2 + n), present (1), digest (32)?]...
/// header count (2) [name (2 + n), value (4 + n)]...  body (8 + n)  SHA-256 of the above (32)
/// ```
///
/// Integers are big-endian; times are the bits of a `Double` of seconds since 1970.
extension CachedResponse {
    static let magic: [UInt8] = Array("MHC1".utf8)

    /// The entry's bytes, for the key whose digest is `keyDigest`.
    func encoded(keyDigest: [UInt8]) -> Data {
        var writer = EntryWriter()
        writer.bytes(Self.magic)
        writer.bytes(keyDigest)
        writer.integer(UInt16(clamping: statusCode))
        writer.integer(requestTime.timeIntervalSince1970.bitPattern)
        writer.integer(responseTime.timeIntervalSince1970.bitPattern)
        writer.string(finalURL?.absoluteString ?? "", lengthBytes: 4)
        writer.integer(UInt8(clamping: variant.salt.count))
        writer.bytes(Array(variant.salt.prefix(255)))
        writer.integer(UInt16(clamping: variant.entries.count))
        for entry in variant.entries.prefix(Int(UInt16.max)) {
            writer.string(entry.name, lengthBytes: 2)
            writer.integer(UInt8(entry.digest == nil ? 0 : 1))
            if let digest = entry.digest {
                writer.bytes(Array(digest.prefix(32)) + Array(repeating: 0, count: max(0, 32 - digest.count)))
            }
        }
        writer.integer(UInt16(clamping: headers.fields.count))
        for field in headers.fields.prefix(Int(UInt16.max)) {
            writer.string(field.name, lengthBytes: 2)
            writer.string(field.value, lengthBytes: 4)
        }
        writer.integer(UInt64(body.count))
        writer.data.append(body)
        writer.bytes(Self.checksum(writer.data))
        return writer.data
    }

    /// The SHA-256 that ends an entry, of everything before it.
    static func checksum(_ data: Data) -> [UInt8] {
        Array(SHA256.hash(data: data))
    }

    /// The entry in `data`, or `nil` unless every byte checks out and it was written for the
    /// key whose digest is `keyDigest`.
    init?(decoding data: Data, keyDigest: [UInt8]) {
        let checksumLength = 32
        guard data.count > Self.magic.count + checksumLength else { return nil }
        let content = data.prefix(data.count - checksumLength)
        guard Self.checksum(content) == Array(data.suffix(checksumLength)) else { return nil }
        var reader = EntryReader(content)
        guard reader.bytes(Self.magic.count) == Self.magic, reader.bytes(32) == keyDigest,
            let status = reader.integer(UInt16.self),
            let requestBits = reader.integer(UInt64.self),
            let responseBits = reader.integer(UInt64.self),
            let url = reader.string(lengthBytes: 4),
            let saltLength = reader.integer(UInt8.self),
            let salt = reader.bytes(Int(saltLength)),
            let variantCount = reader.integer(UInt16.self)
        else { return nil }
        var entries: [RequestVariant.Entry] = []
        for _ in 0..<variantCount {
            guard let name = reader.string(lengthBytes: 2), let present = reader.integer(UInt8.self) else { return nil }
            var digest: [UInt8]?
            if present == 1 {
                guard let bytes = reader.bytes(32) else { return nil }
                digest = bytes
            }
            entries.append(RequestVariant.Entry(name: name, digest: digest))
        }
        guard let headerCount = reader.integer(UInt16.self) else { return nil }
        var fields: [CachedHeaders.Field] = []
        for _ in 0..<headerCount {
            guard let name = reader.string(lengthBytes: 2), let value = reader.string(lengthBytes: 4) else {
                return nil
            }
            fields.append(CachedHeaders.Field(name: name, value: value))
        }
        guard let bodyLength = reader.integer(UInt64.self), bodyLength == UInt64(reader.remaining),
            let body = reader.data(Int(bodyLength))
        else { return nil }
        let requestTime = Double(bitPattern: requestBits)
        let responseTime = Double(bitPattern: responseBits)
        guard requestTime.isFinite, responseTime.isFinite else { return nil }
        self.init(
            statusCode: Int(status),
            headers: CachedHeaders(fields),
            body: body,
            requestTime: Date(timeIntervalSince1970: requestTime),
            responseTime: Date(timeIntervalSince1970: responseTime),
            variant: RequestVariant(salt: salt, entries: entries),
            finalURL: url.isEmpty ? nil : URL(string: url)
        )
    }
}

/// Appends big-endian integers, bytes and length-prefixed strings.
private struct EntryWriter {
    var data = Data()

    mutating func bytes(_ bytes: [UInt8]) {
        data.append(contentsOf: bytes)
    }

    mutating func integer<Value: FixedWidthInteger>(_ value: Value) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    /// A string no longer than its length prefix can say; a longer one is cut at that length.
    mutating func string(_ string: String, lengthBytes: Int) {
        let limit = lengthBytes == 2 ? Int(UInt16.max) : Int(UInt32.max)
        let utf8 = Array(string.utf8.prefix(limit))
        if lengthBytes == 2 {
            integer(UInt16(utf8.count))
        } else {
            integer(UInt32(utf8.count))
        }
        bytes(utf8)
    }
}

/// Reads what `EntryWriter` wrote, returning `nil` past the end instead of trapping.
private struct EntryReader {
    private let data: Data
    private var offset: Int

    init(_ data: Data) {
        self.data = data
        self.offset = data.startIndex
    }

    var remaining: Int { data.endIndex - offset }

    mutating func data(_ count: Int) -> Data? {
        guard count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return Data(data[offset..<offset + count])
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        data(count).map(Array.init)
    }

    mutating func integer<Value: FixedWidthInteger>(_: Value.Type) -> Value? {
        guard let bytes = bytes(MemoryLayout<Value>.size) else { return nil }
        return bytes.reduce(Value.zero) { ($0 << 8) | Value($1) }
    }

    mutating func string(lengthBytes: Int) -> String? {
        let length: Int?
        if lengthBytes == 2 {
            length = integer(UInt16.self).map(Int.init)
        } else {
            length = integer(UInt32.self).map(Int.init)
        }
        guard let length, let bytes = bytes(length) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
