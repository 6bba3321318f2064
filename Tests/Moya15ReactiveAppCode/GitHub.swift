// swift-format-ignore-file
// Moya 15 app code, kept exactly as apps write it: not formatted.
import Foundation
import Moya

// Code as Moya 15 apps using RxMoya and ReactiveMoya write it, unchanged: this folder is compiled
// in the Swift 5 and the Swift 6 language modes with warnings as errors, so a new diagnostic
// fails the build. The files that import RxSwift or ReactiveSwift are compiled with their trait.

enum GitHub {
    case zen
    case userProfile(String)
}

extension GitHub: TargetType {
    var baseURL: URL { URL(string: "https://api.github.com")! }

    var path: String {
        switch self {
        case .zen:
            return "/zen"
        case .userProfile(let name):
            return "/users/\(name)"
        }
    }

    var method: Moya.Method { .get }

    var task: Task { .requestPlain }

    var headers: [String: String]? { ["Content-Type": "application/json"] }

    var sampleData: Data {
        switch self {
        case .zen:
            return "Half measures are as bad as nothing at all.".data(using: .utf8)!
        case .userProfile(let name):
            return "{\"login\": \"\(name)\", \"id\": 100}".data(using: .utf8)!
        }
    }
}

struct User: Decodable {
    let login: String
    let id: Int
}

let stubbingProvider = MoyaProvider<GitHub>(stubClosure: MoyaProvider.immediatelyStub)
