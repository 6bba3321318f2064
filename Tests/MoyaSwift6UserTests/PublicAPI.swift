import Foundation
import Moya

/// A public target, as a library that exposes its API description would declare it.
/// Declared `Sendable` by its author: Moya does not require it, but Swift 6 code that shares
/// targets between tasks does.
public enum PublicAPI: TargetType, Equatable, Sendable {
    case zen
    case user(name: String)

    public var baseURL: URL { URL(string: "https://api.example.test") ?? URL(fileURLWithPath: "/") }

    public var path: String {
        switch self {
        case .zen: return "/zen"
        case .user(let name): return "/users/\(name)"
        }
    }

    public var method: Moya.Method { .get }

    /// Moya's own spelling: `Task` here is Moya's enum, as in every Moya code base.
    public var task: Task { .requestPlain }

    public var headers: [String: String]? { nil }

    public var sampleData: Data {
        switch self {
        case .zen: return Data("Design for failure.".utf8)
        case .user(let name): return Data("{\"login\":\"\(name)\"}".utf8)
        }
    }
}
