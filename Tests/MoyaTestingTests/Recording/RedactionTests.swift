import Foundation
import Moya
import MoyaTesting
import Testing

@Suite("Secrets never reach a fixture file")
struct RedactionTests {
    private let redaction = Redaction(
        headers: ["X-Api-Secret"],
        queryParameters: ["api_key"],
        jsonFields: ["password", "token"]
    )

    private func create(authorization: String = Secrets.authorization, apiKey: String = Secrets.apiKey) -> Catalog {
        .create(name: "moya", password: Secrets.password, apiKey: apiKey, authorization: authorization)
    }

    @Test func headersQueryParametersAndJSONFieldsAreReplacedByThePlaceholder() async throws {
        let folder = try TemporaryDirectory()
        let server = try await CatalogServer.start(hits: HitCounter())
        let recorder = Recorder(directory: folder.url, mode: .record, redaction: redaction)
        let provider = MoyaProvider<Catalog>(recorder: recorder, endpointClosure: Catalog.endpoints(at: server.baseURL))

        let created = try await provider.request(create())
        _ = try await provider.request(.items(page: 1))
        #expect(
            String(decoding: created.data, as: UTF8.self).contains(Secrets.serverToken),
            "the caller still sees the real response"
        )

        let text = try folder.allText()
        #expect(folder.files().count == 2)
        for secret in Secrets.all {
            #expect(!text.contains(secret), "\(secret) leaked into a fixture")
        }
        #expect(text.contains(#""Authorization" : "<redacted>""#))
        #expect(text.contains(#""X-Api-Secret" : "<redacted>""#))
        #expect(text.contains("api_key=%3Credacted%3E"))
        #expect(text.contains(#"\"password\":\"<redacted>\""#))
        #expect(text.contains(#"\"token\":\"<redacted>\""#))
        #expect(text.range(of: #""(?i:set-cookie)" : "<redacted>""#, options: .regularExpression) != nil)
        #expect(text.contains(#"\"name\":\"moya\""#), "other fields are kept")
    }

    @Test func namedParametersInAFormBodyAreReplaced() async throws {
        let folder = try TemporaryDirectory()
        let server = try await CatalogServer.start(hits: HitCounter())
        let provider = MoyaProvider<Catalog>(
            recorder: Recorder(directory: folder.url, mode: .record, redaction: redaction),
            endpointClosure: Catalog.endpoints(at: server.baseURL)
        )
        _ = try await provider.request(.signIn(user: "moya", apiKey: Secrets.apiKey))

        let text = try folder.allText()
        #expect(!text.contains(Secrets.apiKey))
        #expect(text.contains("api_key=%3Credacted%3E"))
        #expect(text.contains("user=moya"))
    }

    @Test func defaultRedactionCoversCredentialHeadersWithoutConfiguration() async throws {
        let folder = try TemporaryDirectory()
        let server = try await CatalogServer.start(hits: HitCounter())
        let provider = MoyaProvider<Catalog>(
            recorder: Recorder(directory: folder.url, mode: .record),
            endpointClosure: Catalog.endpoints(at: server.baseURL)
        )
        _ = try await provider.request(create())
        _ = try await provider.request(.items(page: 1))

        let text = try folder.allText()
        #expect(!text.contains(Secrets.authorization))
        #expect(!text.contains(Secrets.cookie))
        #expect(text.contains(Secrets.customHeader), "unnamed headers are kept")
    }

    @Test func aRecordingIsFoundAgainWithOtherSecretValues() async throws {
        let folder = try TemporaryDirectory()
        let server = try await CatalogServer.start(hits: HitCounter())
        let recording = MoyaProvider<Catalog>(
            recorder: Recorder(directory: folder.url, mode: .record, redaction: redaction),
            endpointClosure: Catalog.endpoints(at: server.baseURL)
        )
        _ = try await recording.request(create())

        let replaying = MoyaProvider<Catalog>(
            recorder: Recorder(directory: folder.url, mode: .replay, redaction: redaction),
            endpointClosure: Catalog.endpoints(at: Catalog.unreachable)
        )
        let replayed = try await replaying.request(create(authorization: "Bearer another", apiKey: "another-key"))
        #expect(replayed.statusCode == 201)
        #expect(String(decoding: replayed.data, as: UTF8.self).contains(#""id":7"#))
        #expect(
            replayed.response?.value(forHTTPHeaderField: "Content-Length") == String(replayed.data.count),
            "a redacted body comes back with a length that matches it"
        )
    }
}
