import Foundation

/// A progress event of a request: the transfer's progress, then the final response.
public struct ProgressResponse: Sendable {
    /// The response, set on the last event only.
    public let response: Response?

    /// The transfer's progress, when there is a transfer to measure.
    public let progressObject: Progress?

    /// Creates a progress event.
    public init(progress: Progress? = nil, response: Response? = nil) {
        self.progressObject = progress
        self.response = response
    }

    /// The fraction of the transfer completed, from 0.0 to 1.0.
    ///
    /// 1.0 once completed; 0.0 until then when the total size is unknown.
    public var progress: Double {
        if completed {
            return 1.0
        } else if let progressObject, progressObject.totalUnitCount > 0 {
            return progressObject.fractionCompleted
        } else {
            return 0.0
        }
    }

    /// Whether the request is complete: the event carries the response.
    public var completed: Bool { response != nil }
}
