import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import Testing

@testable import Moya

@Suite("RequestMultipartFormData, Moya's multipart builder")
struct RequestMultipartFormDataTests {
    private func temporaryFile(_ contents: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("moya-form-\(UUID().uuidString).txt")
        try Data(contents.utf8).write(to: url)
        return url
    }

    @Test func partsAppendedInAnEndpointClosureAreEncodedInOrder() throws {
        // What Moya's EndpointClosureSpec does: the target's parts, then one the closure adds.
        let formData = RequestMultipartFormData(boundary: "b0undary")
        formData.applyMoyaMultipartFormData([MultipartFormData(provider: .data(Data("test1".utf8)), name: "test1")])
        formData.append(Data("test2".utf8), withName: "test2")
        let body = String(decoding: try formData.encode(), as: UTF8.self)
        #expect(
            body
                == "--b0undary\r\nContent-Disposition: form-data; name=\"test1\"\r\n\r\ntest1\r\n"
                + "--b0undary\r\nContent-Disposition: form-data; name=\"test2\"\r\n\r\ntest2\r\n--b0undary--\r\n"
        )
        #expect(formData.contentType == "multipart/form-data; boundary=b0undary")
    }

    @Test func fileAndStreamPartsAreReadWithTheirNamesAndTypes() throws {
        let file = try temporaryFile("file body")
        let formData = RequestMultipartFormData(boundary: "x")
        formData.append(file, withName: "doc", fileName: "a.txt", mimeType: "text/plain")
        formData.append(
            InputStream(data: Data("streamed".utf8)),
            withLength: 8,
            name: "s",
            fileName: "s.bin",
            mimeType: "application/x"
        )
        let body = String(decoding: try formData.encode(), as: UTF8.self)
        #expect(body.contains("name=\"doc\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nfile body\r\n"))
        #expect(body.contains("name=\"s\"; filename=\"s.bin\"\r\nContent-Type: application/x\r\n\r\nstreamed\r\n"))
    }

    @Test func aStreamShorterThanItsLengthFailsToEncode() {
        let formData = RequestMultipartFormData()
        formData.append(InputStream(data: Data("abc".utf8)), withLength: 10, name: "s", fileName: "s", mimeType: "x/y")
        let error = #expect(throws: MoyaClientError.self) { try formData.encode() }
        #expect(error?.code == .uploadShorterThanAnnounced)
    }

    @Test func writeEncodedDataNeverReplacesAnExistingFile() throws {
        let existing = try temporaryFile("keep me")
        let formData = RequestMultipartFormData()
        formData.append(Data("x".utf8), withName: "x")
        #expect(throws: CocoaError.self) { try formData.writeEncodedData(to: existing) }
        #expect(try String(contentsOf: existing, encoding: .utf8) == "keep me")
    }

    @Test func writeEncodedDataWritesWhatEncodeReturns() throws {
        let formData = RequestMultipartFormData()
        formData.append(
            Data("payload".utf8),
            withName: "field",
            fileName: "f.bin",
            mimeType: "application/octet-stream"
        )
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
            "moya-form-out-\(UUID().uuidString)"
        )
        try formData.writeEncodedData(to: destination)
        #expect(try Data(contentsOf: destination) == (try formData.encode()))
    }

    @Test func itsPartsAndContentTypeSendTheSameBytesOverTheNetwork() async throws {
        /// Built where it is used: its parts may hold streams, which are not `Sendable`.
        @Sendable func makeFormData() -> RequestMultipartFormData {
            let formData = RequestMultipartFormData(boundary: "network-boundary")
            formData.append(Data("moya".utf8), withName: "name")
            formData.append(Data("{}".utf8), withName: "json", fileName: "a.json", mimeType: "application/json")
            return formData
        }
        let expected = try makeFormData().encode()
        try await TestServer.with({ router in
            router.post("echo") { request, _ -> Hummingbird.Response in
                let body = try await request.body.collect(upTo: 1 << 20)
                return Hummingbird.Response(status: .ok, body: .init(byteBuffer: body))
            }
        }) { server in
            let target = DynamicTarget(
                baseURL: server.baseURL,
                path: "/echo",
                method: .post,
                makeTask: { .uploadMultipart(makeFormData().parts) },
                headers: ["Content-Type": makeFormData().contentType]
            )
            let response = try await MoyaProvider<DynamicTarget>().request(target)
            #expect(response.data == expected)
        }
    }
}
