import Foundation
import NIOHTTP1

/// A stored response's header fields, in order, with the rules of RFC 9111 3.1 and 3.2 for
/// what is kept and how a `304` updates them.
struct CachedHeaders: Sendable, Equatable {
    /// One field line.
    struct Field: Sendable, Equatable {
        var name: String
        var value: String
    }

    private(set) var fields: [Field]

    init(_ fields: [Field]) {
        self.fields = fields
    }

    /// The fields of a received head that a cache keeps: not the connection's own (3.1), and
    /// not `Set-Cookie`, a secret that belongs to one exchange and that a replayed response
    /// must not hand out again.
    init(storing headers: HTTPHeaders) {
        let connectionOptions = ConnectionOptions(headers)
        var fields: [Field] = []
        fields.reserveCapacity(headers.count)
        for (name, value) in headers where !Self.isNeverStored(name) && !connectionOptions.lists(name) {
            fields.append(Field(name: name, value: value))
        }
        self.fields = fields
    }

    /// Whether a field of this name is never stored, comparing lower-cased names: byte by byte
    /// for an ASCII name, as Unicode text for another.
    private static func isNeverStored(_ name: String) -> Bool {
        guard ASCII.isASCII(name) else { return neverStored.contains(name.lowercased()) }
        return neverStoredNames.contains { HeaderValidation.isSameName($0, name) }
    }

    /// Fields RFC 9111 3.1 keeps out of storage, and the cookies a cache should not replay.
    private static let neverStoredNames = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
        "set-cookie", "set-cookie2",
    ]
    private static let neverStored = Set(neverStoredNames)

    /// Every value of `name`, in order.
    func values(_ name: String) -> [String] {
        fields.compactMap { HeaderValidation.isSameName($0.name, name) ? $0.value : nil }
    }

    /// The first value of `name`.
    func first(_ name: String) -> String? {
        fields.first { HeaderValidation.isSameName($0.name, name) }?.value
    }

    /// The stored fields updated from a `304` (RFC 9111 3.2): each field the `304` carries
    /// replaces the stored ones of that name, except `Content-Length` and what is never stored.
    func updated(with notModified: HTTPHeaders) -> CachedHeaders {
        var update = CachedHeaders(storing: notModified).fields
        update.removeAll { HeaderValidation.isSameName($0.name, "content-length") }
        guard !update.isEmpty else { return self }
        var merged: [Field] = []
        merged.reserveCapacity(fields.count + update.count)
        // The update's names are ASCII, as `HTTPHeaders` holds only those: an ASCII stored name
        // compares byte by byte, another as lower-cased text.
        for field in fields {
            let name = field.name
            let replaced =
                ASCII.isASCII(name)
                ? update.contains { HeaderValidation.isSameName($0.name, name) }
                : update.contains { $0.name.lowercased() == name.lowercased() }
            if !replaced {
                merged.append(field)
            }
        }
        merged.append(contentsOf: update)
        return CachedHeaders(merged)
    }

    /// The fields as NIO headers, leaving out those named `excluded` (lower-cased) and any
    /// that NIO would refuse.
    func httpHeaders(without excluded: String? = nil) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(fields.count + 1)
        for field in fields
        where excluded.map({ !HeaderValidation.isSameName(field.name, $0) }) ?? true
            && HeaderSyntax.problem(name: field.name, value: field.value) == nil
        {
            headers.add(name: field.name, value: field.value)
        }
        return headers
    }

    /// Roughly what the fields take in memory, for the stores' byte budgets.
    var byteCount: Int {
        fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
    }
}
