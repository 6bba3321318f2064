#if OpenAPI
import Foundation
import LoopbackServer
import Moya
import MoyaOpenAPI
import Testing

@Suite("The README's and the article's lines, as a user writes them")
struct DocumentedUsageTests {
    @Test func theFiveDocumentedLinesMakeAWorkingClient() async throws {
        let server = try await TestServer.start { NotesRoutes.greetings($0) }
        // The documented lines, with the test server's URL for the document's.
        let provider = MoyaProvider<OpenAPIOperation>(plugins: [NetworkLoggerPlugin()], interceptor: RetryPolicy())
        let client = Client(serverURL: server.baseURL, transport: MoyaTransport(provider: provider))
        let greeting = try await client.getGreeting(path: .init(name: "Ada")).ok.body.json
        #expect(greeting.message == "Hello, Ada!")
    }
}
#endif
