import Foundation
import Moya

/// A target whose base URL is chosen at run time, for tests against local servers.
struct DynamicTarget: TargetType {
    var baseURL: URL
    var path: String
    var method: Moya.Method = .get
    var makeTask: @Sendable () -> Moya.Task = { .requestPlain }
    var headers: [String: String]? = nil
    var validationType: ValidationType = .none

    var task: Moya.Task { makeTask() }
}

extension DynamicTarget {
    /// A GET of `path` whose body is written to `file`, moved there with `options`.
    static func download(
        _ baseURL: URL,
        path: String,
        to file: URL,
        options: DownloadRequest.Options = []
    ) -> DynamicTarget {
        DynamicTarget(baseURL: baseURL, path: path, makeTask: { .downloadDestination { _, _ in (file, options) } })
    }
}
