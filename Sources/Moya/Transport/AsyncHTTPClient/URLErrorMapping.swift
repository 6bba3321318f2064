import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns transport failures into the `NSURLErrorDomain` errors URLSession reports for the same
/// situations, so code written against Moya on URLSession (`code == NSURLErrorTimedOut`,
/// `NSURLErrorNetworkConnectionLost`, ...) keeps working. The original error stays available
/// under `NSUnderlyingErrorKey`. Errors with no URLSession counterpart pass through unchanged.
enum URLErrorMapping {
    static func map(_ error: Error, url: URL?) -> Error {
        if (error as NSError).domain == NSURLErrorDomain {
            return error
        }
        guard let (code, description) = classify(error) else {
            return error
        }
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: description,
            NSUnderlyingErrorKey: error,
        ]
        if let url {
            // `http://user:secret@host/` would put the password in every printed error.
            userInfo[NSURLErrorFailingURLErrorKey] = URLRedaction.removingUserInfo(url)
        }
        return NSError(domain: NSURLErrorDomain, code: code, userInfo: userInfo)
    }

    private static func classify(_ error: Error) -> (code: Int, description: String)? {
        switch error {
        case let error as HTTPClientError:
            return classify(error)
        case let error as TransferTimeout:
            return (NSURLErrorTimedOut, error.description)
        case is HTTPParserError:
            return (NSURLErrorBadServerResponse, "The server's response is not valid HTTP: \(error).")
        case let error as NIOConnectionError:
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return (NSURLErrorCannotFindHost, "No address was found for \(error.host).")
            }
            return (NSURLErrorCannotConnectToHost, "Could not connect to \(error.host) port \(error.port).")
        case let error as IOError:
            return classify(errno: error.errnoCode)
        case ChannelError.connectTimeout:
            return (NSURLErrorTimedOut, "The connection timed out.")
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return (
                NSURLErrorServerCertificateUntrusted, "The server's certificate is not valid for this host: \(error)."
            )
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return classifyTLS(error)
        default:
            return nil
        }
    }

    private static func classify(_ error: HTTPClientError) -> (code: Int, description: String)? {
        switch error {
        case .remoteConnectionClosed:
            return (
                NSURLErrorNetworkConnectionLost, "The server closed the connection before the response was complete."
            )
        case .deadlineExceeded:
            // The transport names the timeout's length when it knows it (`TransferScope`).
            return (
                NSURLErrorTimedOut,
                "The request timed out: it did not finish within its whole-request timeout "
                    + "(Session.Configuration.requestTimeout)."
            )
        case .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout,
            .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            return (NSURLErrorTimedOut, "The request timed out (\(error)).")
        case .cancelled:
            return (NSURLErrorCancelled, "cancelled")
        case .redirectLimitReached, .redirectCycleDetected:
            return (NSURLErrorHTTPTooManyRedirects, "Too many redirects (\(error)).")
        case .invalidURL, .emptyHost, .emptyScheme:
            return (NSURLErrorBadURL, "The URL cannot be requested (\(error)).")
        default:
            return nil
        }
    }

    private static func classify(errno code: Int32) -> (code: Int, description: String)? {
        switch code {
        case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH:
            return (
                NSURLErrorCannotConnectToHost, "Could not connect to the server (\(String(cString: strerror(code))))."
            )
        case ECONNRESET, EPIPE, ENOTCONN, ECONNABORTED:
            return (NSURLErrorNetworkConnectionLost, "The connection was lost (\(String(cString: strerror(code)))).")
        case ETIMEDOUT:
            return (NSURLErrorTimedOut, "The connection timed out.")
        default:
            return nil
        }
    }

    /// BoringSSL names the reason for a failed handshake only in its error strings.
    private static func classifyTLS(_ error: Error) -> (code: Int, description: String) {
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return (NSURLErrorServerCertificateUntrusted, "The server's certificate is not trusted.")
        }
        if text.contains("CERTIFICATE_REQUIRED") {
            return (NSURLErrorClientCertificateRequired, "The server requires a client certificate.")
        }
        return (NSURLErrorSecureConnectionFailed, "A secure connection could not be made: \(text).")
    }
}
