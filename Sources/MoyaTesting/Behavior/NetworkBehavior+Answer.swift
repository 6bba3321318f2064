import Foundation
import Moya

extension NetworkBehavior {
    /// A copy of `endpoint` whose stubbed answers follow the behaviour: each draws an outcome,
    /// and only a success asks the endpoint's own sample response (a request that failed never
    /// reached the server, so a `StubSequence` behind it does not move on).
    func applied(to endpoint: Endpoint) -> Endpoint {
        let sample = endpoint.sampleResponseClosure
        let url = URL(string: endpoint.url)
        return endpoint.replacing(sampleResponseClosure: { [self] in
            switch nextOutcome() {
            case .success:
                return sample()
            case .failure:
                return .networkError(failureError(url: url))
            case .errorResponse:
                return errorResponse.sampleResponse(url: url)
            }
        })
    }

    /// The error a failing request reports: ``failure``'s code in `NSURLErrorDomain`, with its
    /// user info, a description and the failing URL, as the network path fills them in.
    func failureError(url: URL?) -> NSError {
        let code = failure.errorCode
        var userInfo = failure.userInfo
        if userInfo[NSLocalizedDescriptionKey] == nil {
            userInfo[NSLocalizedDescriptionKey] =
                NetworkFailure.allCases.first { $0.code == code }?.message
                ?? "The network connection failed (NSURLErrorDomain error \(code))."
        }
        if let url, userInfo[NSURLErrorFailingURLErrorKey] == nil {
            userInfo[NSURLErrorFailingURLErrorKey] = url
        }
        return NSError(domain: NSURLErrorDomain, code: code, userInfo: userInfo)
    }
}
