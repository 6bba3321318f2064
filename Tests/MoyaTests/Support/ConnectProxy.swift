import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP proxy on 127.0.0.1 that answers `CONNECT` (AsyncHTTPClient tunnels every proxied
/// request, `http` included) by tunnelling to one fixed loopback port, whatever host was
/// asked for, and records the targets it was asked for.
///
/// Plain sockets on threads: a tunnel is two byte copies, and the test needs nothing more.
/// It serves until the process ends, as the test servers do; each tunnel ends when either
/// side closes.
final class ConnectProxy: Sendable {
    let port: Int
    private let listener: Int32
    private let tunnelPort: Int
    private let targets = NIOLockedValueBox<[String]>([])

    /// The `CONNECT` targets asked for so far.
    var requestedTargets: [String] { targets.withLockedValue { $0 } }

    init(tunnellingTo tunnelPort: Int) throws {
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
        self.tunnelPort = tunnelPort
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
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "CONNECT" else {
            write(client, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
            close(client)
            return
        }
        targets.withLockedValue { $0.append(String(parts[1])) }
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: UInt16(tunnelPort))
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
        write(client, "HTTP/1.1 200 Connection Established\r\n\r\n")
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
