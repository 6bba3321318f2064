import Foundation
import Hummingbird
import LoopbackServer
import NIOCore
import Testing

@testable import Moya

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The file name a response suggests, as Apple's platforms suggest it: the server's
/// `Content-Disposition` name, else the URL's last path component, else the host.
@Suite("Suggested file names")
struct SuggestedFileNameTests {
    private func response(_ url: String, headers: [String: String] = [:]) throws -> HTTPURLResponse {
        let url = try #require(URL(string: url))
        return try #require(
            NamedHTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
        )
    }

    @Test func aResponseWithoutContentDispositionIsNamedAfterItsURLsLastPathComponent() throws {
        #expect(try response("http://example.com/images/logo_github.png").suggestedFilename == "logo_github.png")
        #expect(try response("http://example.com/images/logo.png?size=2").suggestedFilename == "logo.png")
    }

    @Test func aResponseForTheRootIsNamedAfterTheHost() throws {
        #expect(try response("http://example.com/").suggestedFilename == "example.com")
    }

    @Test func theServersNameWins() throws {
        let named = try response(
            "http://example.com/download",
            headers: ["Content-Disposition": "attachment; filename=\"report.pdf\""]
        )
        #expect(named.suggestedFilename == "report.pdf")
    }

    @Test func downloadsSavedUnderTheSuggestedNameKeepTheirOwnNames() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moya-named-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestServer.with({ router in
            router.get("files/:name") { request, context -> Hummingbird.Response in
                let name = context.parameters.get("name") ?? ""
                return Hummingbird.Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: name)))
            }
        }) { server in
            let provider = MoyaProvider<DynamicTarget>(session: Session(configuration: .init(cookieStorage: nil)))
            for name in ["logo_github.png", "readme.txt"] {
                let target = DynamicTarget(baseURL: server.baseURL, path: "/files/\(name)") {
                    .downloadDestination(DownloadRequest.suggestedDestination(in: folder, options: []))
                }
                let response = try await provider.request(target)
                #expect(response.fileURL?.lastPathComponent == name)
            }
            let saved = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(saved == ["logo_github.png", "readme.txt"])
        }
    }
}
