import Foundation
import Moya

/// A transport failure, made exactly as the network path reports it: an `NSError` in
/// `NSURLErrorDomain` with URLSession's code, which the provider hands over as
/// `MoyaError.underlying(error, nil)`.
public enum NetworkFailure: Sendable, Equatable, CaseIterable {
    /// No answer in time: `NSURLErrorTimedOut`.
    case timedOut

    /// The connection dropped before the response was complete: `NSURLErrorNetworkConnectionLost`.
    case connectionLost

    /// Nothing accepted the connection: `NSURLErrorCannotConnectToHost`.
    case cannotConnectToHost

    /// The host name has no address: `NSURLErrorCannotFindHost`.
    case cannotFindHost

    /// The server's answer is not valid HTTP: `NSURLErrorBadServerResponse`.
    case badServerResponse

    /// The `NSURLErrorDomain` code.
    public var code: Int {
        switch self {
        case .timedOut: return NSURLErrorTimedOut
        case .connectionLost: return NSURLErrorNetworkConnectionLost
        case .cannotConnectToHost: return NSURLErrorCannotConnectToHost
        case .cannotFindHost: return NSURLErrorCannotFindHost
        case .badServerResponse: return NSURLErrorBadServerResponse
        }
    }

    /// The description the network path gives the failure; also the one ``NetworkBehavior`` gives it.
    var message: String {
        switch self {
        case .timedOut: return "The request timed out."
        case .connectionLost: return "The connection was lost."
        case .cannotConnectToHost: return "Could not connect to the server."
        case .cannotFindHost: return "A server with the specified hostname could not be found."
        case .badServerResponse: return "The server's response is not valid HTTP."
        }
    }

    /// The error, with the failing URL when one is given.
    public func error(url: URL? = nil) -> NSError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let url {
            userInfo[NSURLErrorFailingURLErrorKey] = url
        }
        return NSError(domain: NSURLErrorDomain, code: code, userInfo: userInfo)
    }
}

extension EndpointSampleResponse {
    /// A stub that fails the way the network does: `.networkError` with `failure`'s
    /// `NSURLErrorDomain` error.
    ///
    /// - Parameters:
    ///   - failure: Which failure.
    ///   - url: The failing URL to report, if any.
    public static func failure(_ failure: NetworkFailure, url: URL? = nil) -> EndpointSampleResponse {
        .networkError(failure.error(url: url))
    }
}
