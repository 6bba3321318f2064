import Foundation
import Moya
import Testing

/// Runs `request`, which must fail with `MoyaError.underlying(error, nil)`, and returns that
/// error; records an issue and returns `nil` when the request succeeds or fails otherwise.
func expectUnderlyingFailure(
    _ why: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ request: () async throws -> Moya.Response
) async -> NSError? {
    do {
        _ = try await request()
        Issue.record("\(why)", sourceLocation: sourceLocation)
    } catch {
        guard case .underlying(let inner, nil) = error as? MoyaError else {
            Issue.record("expected .underlying, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        return inner as NSError
    }
    return nil
}

/// Records an issue unless `error` is a shut-down session's refusal:
/// `.underlying(MoyaClientError` with the code `sessionShutDown`, `nil)`.
func expectSessionShutDown(_ error: Error, sourceLocation: SourceLocation = #_sourceLocation) {
    guard case .underlying(let inner as MoyaClientError, nil) = error as? MoyaError, inner.code == .sessionShutDown
    else {
        Issue.record(
            "expected .underlying(MoyaClientError sessionShutDown, nil), got \(error)",
            sourceLocation: sourceLocation
        )
        return
    }
}
