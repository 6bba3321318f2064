// swift-format-ignore-file
// Moya 15 app code, kept exactly as apps write it: not formatted.
import Foundation
import Moya

// Code as Moya 15 apps write it, unchanged: this folder is compiled in the Swift 5 and the
// Swift 6 language modes with warnings as errors, so a new diagnostic fails the build.

/// The target of Moya's own example app, with a case carrying `[String: Any]` as apps do.
enum GitHub {
    case zen
    case userProfile(String)
    case userRepositories(String)
    case signIn(parameters: [String: Any])
    case uploadAvatar(Data)
}

extension GitHub: TargetType {
    var baseURL: URL { URL(string: "https://api.github.com")! }

    var path: String {
        switch self {
        case .zen:
            return "/zen"
        case .userProfile(let name):
            return "/users/\(name.urlEscaped)"
        case .userRepositories(let name):
            return "/users/\(name.urlEscaped)/repos"
        case .signIn:
            return "/session"
        case .uploadAvatar:
            return "/user/avatar"
        }
    }

    var method: Moya.Method {
        switch self {
        case .signIn, .uploadAvatar:
            return .post
        default:
            return .get
        }
    }

    var task: Task {
        switch self {
        case .userRepositories:
            return .requestParameters(parameters: ["sort": "pushed"], encoding: URLEncoding.default)
        case .signIn(let parameters):
            return .requestParameters(parameters: parameters, encoding: JSONEncoding.default)
        case .uploadAvatar(let data):
            return .uploadMultipart([MultipartFormData(provider: .data(data), name: "avatar", fileName: "avatar.png", mimeType: "image/png")])
        default:
            return .requestPlain
        }
    }

    var validationType: ValidationType {
        switch self {
        case .zen:
            return .successCodes
        default:
            return .none
        }
    }

    var sampleData: Data {
        switch self {
        case .zen:
            return "Half measures are as bad as nothing at all.".data(using: String.Encoding.utf8)!
        case .userProfile(let name):
            return "{\"login\": \"\(name)\", \"id\": 100}".data(using: String.Encoding.utf8)!
        case .userRepositories(let name):
            return "[{\"name\": \"\(name)-repo\"}]".data(using: String.Encoding.utf8)!
        case .signIn:
            return "{\"token\": \"t0ken\"}".data(using: String.Encoding.utf8)!
        case .uploadAvatar:
            return Data()
        }
    }

    var headers: [String: String]? {
        ["Content-type": "application/json"]
    }
}

extension String {
    var urlEscaped: String {
        addingPercentEncoding(withAllowedCharacters: .urlHostAllowed)!
    }
}

struct User: Decodable {
    let login: String
    let id: Int
}

struct Repository: Decodable {
    let name: String
}
