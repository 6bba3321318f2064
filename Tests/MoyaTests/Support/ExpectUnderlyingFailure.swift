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
