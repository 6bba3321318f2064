import Foundation
import Moya
import MoyaTesting
import Testing

/// An API with a body, headers, a query and uploads, for request assertions.
enum Accounts: TargetType, AccessTokenAuthorizable {
    case create(name: String, stars: Int)
    case search(term: String)
    case avatar(image: Data, caption: String)
    case upload(URL)

    var baseURL: URL { URL(string: "https://accounts.example/api") ?? URL(fileURLWithPath: "/") }

    var path: String {
        switch self {
        case .create, .search: return "/users"
        case .avatar: return "/users/me/avatar"
        case .upload: return "/files"
        }
    }

    var method: Moya.Method {
        switch self {
        case .search: return .get
        case .create, .avatar, .upload: return .post
        }
    }

    var task: Moya.Task {
        switch self {
        case let .create(name, stars):
            return .requestJSONEncodable(NewUser(name: name, stars: stars))
        case .search(let term):
            return .requestParameters(parameters: ["q": term, "limit": 10], encoding: URLEncoding.queryString)
        case let .avatar(image, caption):
            return .uploadMultipart([
                MultipartFormData(provider: .data(image), name: "avatar", fileName: "me.png", mimeType: "image/png"),
                MultipartFormData(provider: .data(Data(caption.utf8)), name: "caption"),
            ])
        case .upload(let file):
            return .uploadFile(file)
        }
    }

    var headers: [String: String]? { ["X-Client": "tests"] }

    var authorizationType: AuthorizationType? {
        if case .create = self { return .bearer }
        return nil
    }
}

struct NewUser: Codable, Equatable {
    var name: String
    var stars: Int
}

@Suite("Capturing what a provider sent")
struct RequestRecorderTests {
    private let requests = RequestRecorder()

    private var provider: MoyaProvider<Accounts> {
        MoyaProvider<Accounts>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [AccessTokenPlugin { _ in "t0ken" }, requests]
        )
    }

    @Test func capturesMethodURLHeadersAndJSONBody() async throws {
        _ = try await provider.request(.create(name: "moya", stars: 15))

        let sent = try #require(requests.last)
        #expect(sent.method == .post)
        #expect(sent.url?.absoluteString == "https://accounts.example/api/users")
        #expect(sent.path == "/api/users")
        #expect(sent.header("x-client") == "tests")
        #expect(sent.header("Content-Type") == "application/json")
        #expect(sent.header("Authorization") == "Bearer t0ken")
        #expect(try sent.decodeBody(as: NewUser.self) == NewUser(name: "moya", stars: 15))
        #expect((sent.bodyJSON as? [String: Any])?["stars"] as? Int == 15)
    }

    @Test func capturesHeadersThatPluginsAddedWhateverThePluginOrder() async throws {
        let provider = MoyaProvider<Accounts>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [requests, AccessTokenPlugin { _ in "t0ken" }]
        )
        _ = try await provider.request(.create(name: "moya", stars: 1))
        _ = try await provider.request(.search(term: "swift"))

        #expect(requests.requests.map { $0.header("Authorization") } == ["Bearer t0ken", nil])
        #expect(
            requests.last?.header("User-Agent")?.isEmpty == false,
            "the session's default headers are part of what was sent"
        )
    }

    @Test func capturesQueryParameters() async throws {
        _ = try await provider.request(.search(term: "swift server"))

        let sent = try #require(requests.last)
        #expect(sent.method == .get)
        #expect(sent.queryValue("q") == "swift server")
        #expect(sent.queryValue("limit") == "10")
        #expect(sent.body == nil)
    }

    @Test func capturesMultipartPartNamesAndFileNames() async throws {
        _ = try await provider.request(.avatar(image: Data([0x89, 0x50]), caption: "hello"))

        let sent = try #require(requests.last)
        #expect(sent.parts.map(\.name) == ["avatar", "caption"])
        #expect(sent.parts.map(\.fileName) == ["me.png", nil])
        #expect(sent.parts.first?.mimeType == "image/png")
        #expect(sent.parts.last?.data == Data("hello".utf8))
    }

    @Test func capturesTheUploadedFile() async throws {
        let file = URL(fileURLWithPath: "/tmp/report.csv")
        _ = try await provider.request(.upload(file))
        #expect(requests.last?.uploadFileURL == file)
        #expect(requests.last?.parts.isEmpty == true)
    }

    @Test func keepsEveryRequestInOrderAndCanBeCleared() async throws {
        _ = try await provider.request(.search(term: "a"))
        _ = try await provider.request(.create(name: "b", stars: 1))
        _ = try await provider.request(.search(term: "c"))

        #expect(requests.requests.map(\.method) == [.get, .post, .get])
        #expect(requests.requests(toPath: "/api/users").count == 3)
        #expect(requests.requests.compactMap { $0.queryValue("q") } == ["a", "c"])
        requests.removeAll()
        #expect(requests.requests.isEmpty)
    }

    @Test func capturesRequestsSentOverTheNetwork() async throws {
        let server = try await CatalogServer.start(hits: HitCounter())
        let recorder = RequestRecorder()
        let provider = MoyaProvider<Catalog>(
            endpointClosure: Catalog.endpoints(at: server.baseURL),
            plugins: [recorder]
        )
        _ = try await provider.request(.create(name: "net", password: "pw", apiKey: "k", authorization: "Bearer b"))

        let sent = try #require(recorder.last)
        #expect(sent.url?.port == server.baseURL.port)
        #expect(sent.queryValue("api_key") == "k")
        #expect(sent.header("Authorization") == "Bearer b")
        #expect((sent.bodyJSON as? [String: String]) == ["name": "net", "password": "pw"])
    }
}
