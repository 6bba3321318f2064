import Foundation
import Testing

@testable import Moya

/// The package's own failures arrive as one type, matched by code, inside `MoyaError.underlying`.
@Suite("MoyaClientError")
struct MoyaClientErrorTests {
    private let queue = DispatchQueue(label: "client-error-tests")

    @Test func aRefusedHeaderIsMatchedByItsCodeAndNamesTheHeader() async {
        let target = DynamicTarget(
            baseURL: URL(fileURLWithPath: "/"),
            path: "/zen",
            headers: ["X-Injected": "a\r\nHost: evil.test"]
        )
        let provider = MoyaProvider<DynamicTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let result = await provider.requestAndWait(target, callbackQueue: queue)
        guard case .failure(let error) = result, let clientError = error.clientError else {
            Issue.record("expected a MoyaClientError, got \(result)")
            return
        }
        #expect(clientError.code == .invalidHeader)
        #expect(clientError.name == "X-Injected")
        // `MoyaError`'s description carries the package's explanation.
        #expect(error.localizedDescription.contains("Invalid header"))
    }

    @Test func everyCodeIsDistinctAndReadsAsItsName() {
        let codes: [MoyaClientError.Code] = [
            .invalidMethod, .invalidHeader, .notARegularFile, .sessionShutDown, .unsupportedSetting,
            .uploadShorterThanAnnounced, .uploadStreamAlreadyRead, .serverTrust, .bodyTooLarge,
            .streamAlreadyConsumed, .eventTooLarge, .unexpectedContentType,
        ]
        #expect(Set(codes).count == codes.count)
        #expect(MoyaClientError.Code.bodyTooLarge.description == "bodyTooLarge")
    }

    @Test func anErrorOfAnotherKindHasNoClientError() {
        let timedOut = MoyaError.underlying(URLError(.timedOut), nil)
        #expect(timedOut.clientError == nil)
        #expect(MoyaError.requestMapping("x").clientError == nil)
    }
}
