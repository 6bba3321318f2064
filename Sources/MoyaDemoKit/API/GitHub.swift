import Foundation
import Moya

/// The seeds' GitHub API, as a Moya user writes it, plus the routes only the embedded server
/// has (uploads, a large download, a flaky endpoint, token refresh).
public enum GitHub {
    /// `GET /zen`: a line of GitHub wisdom, as text.
    case zen
    /// `GET /users/{name}`.
    case userProfile(String)
    /// `GET /users/{name}/repos?sort=pushed`.
    case userRepositories(String)
    /// `GET /user`: the signed-in user; needs the access token.
    case me
    /// `POST /uploads`: a multipart form with a title and a text file.
    ///
    /// The case carries the file's URL, not `MultipartFormData` (which is not `Sendable`):
    /// the target builds its parts when the provider asks for its task.
    case upload(title: String, notes: URL)
    /// `GET /downloads/large?bytes=N`, saved where `destination` says.
    case download(bytes: Int, destination: DownloadDestination)
    /// `GET /flaky/{key}?failures=N`: `503` for the first `N` attempts with that key, then `200`.
    case flaky(key: String, failures: Int)
    /// `GET /user/starred`: needs a token that has not expired.
    case starred
    /// `POST /login/oauth/access_token`: trades a refresh token for a new token pair.
    case refreshToken(String)
}

extension GitHub: TargetType, AccessTokenAuthorizable {
    public var baseURL: URL { DemoConfiguration.baseURL }

    public var path: String {
        switch self {
        case .zen:
            return "/zen"
        case .userProfile(let name):
            return "/users/\(name.urlEscaped)"
        case .userRepositories(let name):
            return "/users/\(name.urlEscaped)/repos"
        case .me:
            return "/user"
        case .upload:
            return "/uploads"
        case .download:
            return "/downloads/large"
        case .flaky(let key, _):
            return "/flaky/\(key.urlEscaped)"
        case .starred:
            return "/user/starred"
        case .refreshToken:
            return "/login/oauth/access_token"
        }
    }

    public var method: Moya.Method {
        switch self {
        case .upload, .refreshToken:
            return .post
        default:
            return .get
        }
    }

    public var task: Task {
        switch self {
        case .userRepositories:
            return .requestParameters(parameters: ["sort": "pushed"], encoding: URLEncoding.default)
        case .upload(let title, let notes):
            return .uploadMultipart([
                MultipartFormData(provider: .data(Data(title.utf8)), name: "title"),
                MultipartFormData(provider: .file(notes), name: "notes", mimeType: "text/plain"),
            ])
        case .download(let bytes, let destination):
            return .downloadParameters(
                parameters: ["bytes": bytes],
                encoding: URLEncoding.queryString,
                destination: destination
            )
        case .flaky(_, let failures):
            return .requestParameters(parameters: ["failures": failures], encoding: URLEncoding.queryString)
        case .refreshToken(let refreshToken):
            return .requestParameters(parameters: ["refresh_token": refreshToken], encoding: JSONEncoding.default)
        default:
            return .requestPlain
        }
    }

    public var sampleData: Data {
        switch self {
        case .zen:
            return Data("Half measures are as bad as nothing at all.".utf8)
        case .userProfile(let name):
            return Data("{\"login\": \"\(name)\", \"id\": 100}".utf8)
        case .userRepositories:
            return Data("[{\"name\": \"Repo Name\"}]".utf8)
        case .me:
            return Data("{\"login\": \"me\", \"id\": 1}".utf8)
        default:
            return Data()
        }
    }

    public var validationType: ValidationType { .successCodes }

    public var headers: [String: String]? { ["Accept": "application/json"] }

    public var authorizationType: AuthorizationType? {
        switch self {
        case .me: return .bearer
        default: return nil
        }
    }
}

extension String {
    /// The string escaped for use as one path component.
    var urlEscaped: String {
        addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? self
    }
}
