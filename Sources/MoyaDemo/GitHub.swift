import Foundation
import Moya

/// The seeds' GitHub API, as a Moya user writes it.
enum GitHub {
    case zen
    case userProfile(String)
    case userRepositories(String)
    case me
}

extension GitHub: TargetType, AccessTokenAuthorizable {
    var baseURL: URL { DemoConfiguration.baseURL }

    var path: String {
        switch self {
        case .zen:
            return "/zen"
        case .userProfile(let name):
            return "/users/\(name.urlEscaped)"
        case .userRepositories(let name):
            return "/users/\(name.urlEscaped)/repos"
        case .me:
            return "/user"
        }
    }

    var method: Moya.Method { .get }

    var task: Task {
        switch self {
        case .userRepositories:
            return .requestParameters(parameters: ["sort": "pushed"], encoding: URLEncoding.default)
        default:
            return .requestPlain
        }
    }

    var sampleData: Data {
        switch self {
        case .zen:
            return Data("Half measures are as bad as nothing at all.".utf8)
        case .userProfile(let name):
            return Data("{\"login\": \"\(name)\", \"id\": 100}".utf8)
        case .userRepositories:
            return Data("[{\"name\": \"Repo Name\"}]".utf8)
        case .me:
            return Data("{\"login\": \"me\", \"id\": 1}".utf8)
        }
    }

    var validationType: ValidationType { .successCodes }

    var headers: [String: String]? { ["Accept": "application/json"] }

    var authorizationType: AuthorizationType? {
        switch self {
        case .me: return .bearer
        default: return nil
        }
    }
}

extension String {
    var urlEscaped: String {
        addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? self
    }
}

/// A user as the API returns it.
struct User: Decodable, Sendable {
    let login: String
    let id: Int
}

/// A repository as the API returns it.
struct Repository: Decodable, Sendable {
    let name: String
}
