import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP forward proxy on 127.0.0.1, set up as squid usually is: it forwards requests in
/// absolute form (`GET http://host/path HTTP/1.1`) and opens `CONNECT` tunnels only to the
/// ports it allows. Whatever host a request names, it goes to one fixed loopback port; the
/// proxy records each request it was asked for.
///
/// Plain sockets on threads: a forwarded request is its head rewritten to origin form and
/// then two byte copies, as a tunnel is, and the tests need nothing more. It serves until the
/// process ends, as the test servers do; each connection ends when either side closes.
final class TestProxy: Sendable {
    /// One request the proxy was asked for.
    struct Visit: Sendable, Equatable {
        /// `CONNECT`, or the forwarded request's method.
        var method: String
        /// The request target: `host:port` for `CONNECT`, the absolute URL otherwise.
        var target: String
        /// The `Proxy-Authorization` value the request carried.
        var proxyAuthorization: String?
    }

    let port: Int
    private let listener: Int32
    private let upstreamPort: Int
    private let allowsConnect: @Sendable (Int) -> Bool
    private let recorded = NIOLockedValueBox<[Visit]>([])

    /// Every request asked for so far, refused ones included.
    var visits: [Visit] { recorded.withLockedValue { $0 } }
    /// The `CONNECT` targets asked for so far.
    var requestedTargets: [String] { visits.filter { $0.method == "CONNECT" }.map(\.target) }
    /// The absolute URLs of the requests forwarded so far.
    var forwardedTargets: [String] { visits.filter { $0.method != "CONNECT" }.map(\.target) }

    /// - Parameters:
    ///   - upstreamPort: the loopback port every request and tunnel goes to.
    ///   - allowsConnect: whether a `CONNECT` to a port is allowed; every port by default.
    init(forwardingTo upstreamPort: Int, allowsConnect: @escaping @Sendable (Int) -> Bool = { _ in true }) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 16) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.listener = descriptor
        self.upstreamPort = upstreamPort
        self.allowsConnect = allowsConnect
        self.port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        guard let head = readHead(client), let line = head.split(separator: "\r\n").first else {
            close(client)
            return
        }
        let lines = head.split(separator: "\r\n").dropFirst()
        let parts = line.split(separator: " ")
        guard parts.count == 3 else {
            write(client, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            close(client)
            return
        }
        let (method, target) = (String(parts[0]), String(parts[1]))
        let authorization = lines.first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { $0.dropFirst("proxy-authorization:".count).trimmingCharacters(in: .whitespaces) }
        recorded.withLockedValue { $0.append(Visit(method: method, target: target, proxyAuthorization: authorization)) }
        if method == "CONNECT" {
            guard let port = target.split(separator: ":").last.flatMap({ Int($0) }), allowsConnect(port) else {
                write(client, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
                close(client)
                return
            }
            relay(client, firstWriting: "HTTP/1.1 200 Connection Established\r\n\r\n", upstreamWriting: nil)
            return
        }
        guard let url = URL(string: target), url.scheme == "http", url.host != nil else {
            write(client, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            close(client)
            return
        }
        // Origin form for the server, without what was meant for the proxy.
        let path = url.query.map { "\(url.path.isEmpty ? "/" : url.path)?\($0)" } ?? (url.path.isEmpty ? "/" : url.path)
        let kept = lines.filter { !$0.lowercased().hasPrefix("proxy-") }
        let forwarded = "\(method) \(path) HTTP/1.1\r\n" + kept.map { $0 + "\r\n" }.joined() + "\r\n"
        relay(client, firstWriting: nil, upstreamWriting: forwarded)
    }

    /// Connects to the upstream port, writes what each side is owed first, and copies both
    /// ways until either side closes.
    private func relay(_ client: Int32, firstWriting reply: String?, upstreamWriting head: String?) {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: UInt16(upstreamPort))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            write(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            close(client)
            close(upstream)
            return
        }
        if let reply { write(client, reply) }
        if let head { write(upstream, head) }
        Thread.detachNewThread { Self.copy(from: upstream, to: client) }
        Self.copy(from: client, to: upstream)
    }

    /// Reads up to the blank line that ends the request head, a byte at a time so that
    /// nothing of the tunnelled bytes is read past it.
    private func readHead(_ descriptor: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 8192, read(descriptor, &byte, 1) == 1 {
            bytes.append(byte)
            if bytes.count >= 4, bytes.suffix(4) == [13, 10, 13, 10] {
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        return nil
    }

    private func write(_ descriptor: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Copies until `source` ends, then closes both ends, which ends the other direction too.
    private static func copy(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { break }
            let sent = buffer.withUnsafeBytes { send(destination, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
            guard sent == count else { break }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
    }
}
