import Foundation

/// One of a transfer's time limits ran out, and how long it was.
///
/// AsyncHTTPClient's `deadlineExceeded` does not say how long the deadline was; the transport
/// swaps it for this error (see `TransferScope`) so that the message can.
struct TransferTimeout: Error, CustomStringConvertible {
    enum Limit {
        /// No bytes moved for this long.
        case idle
        /// The whole request took this long.
        case wholeRequest
    }

    let limit: Limit
    let seconds: Double

    /// Which limit ran out, as the end of a sentence.
    var reason: String {
        switch limit {
        case .idle:
            return "no data arrived for \(seconds) seconds (the idle timeout)"
        case .wholeRequest:
            return "it did not finish within its whole-request timeout of \(seconds) seconds "
                + "(Session.Configuration.requestTimeout)"
        }
    }

    var description: String {
        "The request timed out: \(reason)."
    }

    /// The error URLSession reports for the same situation, saying which limit ran out.
    var asURLError: NSError {
        NSError(
            domain: NSURLErrorDomain,
            code: NSURLErrorTimedOut,
            userInfo: [NSLocalizedDescriptionKey: description]
        )
    }
}
