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
        let connectionOptions = Set(
            headers["connection"].flatMap { $0.split(separator: ",") }.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
        )
        fields = headers.compactMap { name, value in
            let lowered = name.lowercased()
            guard !Self.neverStored.contains(lowered), !connectionOptions.contains(lowered) else { return nil }
            return Field(name: name, value: value)
        }
    }

    /// Fields RFC 9111 3.1 keeps out of storage, and the cookies a cache should not replay.
    private static let neverStored: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
        "set-cookie", "set-cookie2",
    ]

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
        let update = CachedHeaders(storing: notModified).fields.filter {
            !HeaderValidation.isSameName($0.name, "content-length")
        }
        guard !update.isEmpty else { return self }
        let replaced = Set(update.map { $0.name.lowercased() })
        return CachedHeaders(fields.filter { !replaced.contains($0.name.lowercased()) } + update)
    }

    /// The fields with `name` set to one value.
    func setting(_ name: String, to value: String) -> CachedHeaders {
        CachedHeaders(fields.filter { !HeaderValidation.isSameName($0.name, name) } + [Field(name: name, value: value)])
    }

    /// The fields as NIO headers, leaving out any that NIO would refuse.
    var httpHeaders: HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(fields.count)
        for field in fields where HeaderValidation.problem(name: field.name, value: field.value) == nil {
            headers.add(name: field.name, value: field.value)
        }
        return headers
    }

    /// Roughly what the fields take in memory, for the stores' byte budgets.
    var byteCount: Int {
        fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
    }
}
