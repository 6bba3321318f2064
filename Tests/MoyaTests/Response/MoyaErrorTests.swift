import Foundation
import Moya
import Testing

@Suite("MoyaError")
struct MoyaErrorTests {
    private struct Inner: LocalizedError {
        var errorDescription: String? { "the inner failure" }
    }

    private static let response = Response(statusCode: 503, data: Data("down".utf8))

    /// One error of every case.
    private static let everyCase: [MoyaError] = [
        .imageMapping(response),
        .jsonMapping(response),
        .stringMapping(response),
        .objectMapping(Inner(), response),
        .encodableMapping(Inner()),
        .statusCode(response),
        .underlying(Inner(), response),
        .requestMapping("https://bad url"),
        .parameterEncoding(Inner()),
    ]

    @Test func casesWithAResponseReturnIt() {
        let cases: [MoyaError] = [
            .imageMapping(Self.response), .jsonMapping(Self.response), .stringMapping(Self.response),
            .objectMapping(Inner(), Self.response), .statusCode(Self.response), .underlying(Inner(), Self.response),
        ]
        for error in cases {
            #expect(error.response === Self.response, "\(error)")
        }
    }

    @Test func casesWithoutAResponseReturnNil() {
        let cases: [MoyaError] = [
            .encodableMapping(Inner()), .requestMapping("x"), .parameterEncoding(Inner()), .underlying(Inner(), nil),
        ]
        for error in cases {
            #expect(error.response == nil, "\(error)")
        }
    }

    @Test func theOneArgumentUnderlyingHasNoResponse() {
        let error = MoyaError.underlying(Inner())
        guard case .underlying(let inner, nil) = error else {
            Issue.record("expected .underlying(_, nil), got \(error)")
            return
        }
        #expect(inner is Inner)
    }

    @Test func everyCaseHasItsOwnDescription() {
        let descriptions = Self.everyCase.map { $0.errorDescription ?? "" }
        #expect(!descriptions.contains(""))
        // `.underlying` and `.parameterEncoding` both quote the inner error; the others are distinct.
        #expect(Set(descriptions).count == descriptions.count)
    }

    @Test func theStatusCodeDescriptionNamesTheCode() {
        #expect(MoyaError.statusCode(Self.response).errorDescription?.contains("503") == true)
    }

    @Test func theRequestMappingDescriptionNamesTheURL() {
        #expect(MoyaError.requestMapping("https://bad url").errorDescription?.contains("https://bad url") == true)
    }

    @Test func underlyingUsesTheInnerErrorsDescription() {
        #expect(MoyaError.underlying(Inner(), nil).errorDescription == "the inner failure")
        let wrapped = MoyaError.underlying(MoyaError.statusCode(Self.response), Self.response)
        #expect(wrapped.errorDescription == MoyaError.statusCode(Self.response).errorDescription)
    }

    @Test func parameterEncodingDescriptionExplainsTheInnerError() {
        let error = MoyaError.parameterEncoding(
            ParameterEncodingError.invalidJSONObject(path: "$.when", reason: "a Date")
        )
        #expect(error.errorDescription?.contains("$.when") == true)
    }

    @Test func localizedDescriptionIsTheErrorDescription() {
        for error in Self.everyCase {
            #expect(error.localizedDescription == error.errorDescription, "\(error)")
        }
    }

    @Test func theNSErrorFormCarriesDomainCodeDescriptionAndUnderlyingError() {
        let codes = Self.everyCase.map { ($0 as NSError).code }
        #expect(Set(codes).count == Self.everyCase.count)
        for error in Self.everyCase {
            let nsError = error as NSError
            #expect(nsError.domain == "Moya.MoyaError")
            #expect(nsError.userInfo[NSLocalizedDescriptionKey] as? String == error.errorDescription)
        }
        let underlying = (MoyaError.objectMapping(Inner(), Self.response) as NSError).userInfo[NSUnderlyingErrorKey]
        #expect(underlying is Inner)
        #expect((MoyaError.statusCode(Self.response) as NSError).userInfo[NSUnderlyingErrorKey] == nil)
    }

    // MARK: Readable descriptions

    private struct Account: Decodable {
        struct Owner: Decodable {
            let name: String
            let tags: [Int]
        }

        let owner: Owner
    }

    private struct Failure: Error {
        let reason: String
    }

    /// The error decoding `json` into `Account` throws.
    private func decodingError(_ json: String) throws -> DecodingError {
        do {
            _ = try JSONDecoder().decode(Account.self, from: Data(json.utf8))
        } catch let error as DecodingError {
            return error
        }
        throw Failure(reason: "\(json) decoded")
    }

    private func debugDescription(of error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return context.debugDescription
        @unknown default:
            return ""
        }
    }

    @Test func objectMappingDescribesTheDecodingErrorsPathAndDebugDescription() throws {
        let inner = try decodingError(#"{"owner":{"name":"a","tags":[1,"two"]}}"#)
        let error = MoyaError.objectMapping(inner, Self.response)
        for text in [error.errorDescription ?? "", error.localizedDescription, "\(error)"] {
            #expect(text.contains("owner.tags[1]"), "\(text)")
            #expect(text.contains(debugDescription(of: inner)), "\(text)")
        }
    }

    @Test func aMissingKeyIsNamedWithWhereItWasExpected() throws {
        let inner = try decodingError(#"{"owner":{"tags":[]}}"#)
        let description = MoyaError.objectMapping(inner, Self.response).errorDescription ?? ""
        #expect(description.contains(#""name""#))
        #expect(description.contains("owner"))
    }

    @Test func corruptDataAtTheTopLevelSaysSo() throws {
        let inner = try decodingError("not json")
        #expect(MoyaError.objectMapping(inner, Self.response).errorDescription?.contains("the top level") == true)
    }

    @Test func encodableMappingDescribesTheEncodingErrorsPath() {
        do {
            _ = try JSONEncoder().encode(["ratio": Double.nan])
            Issue.record("NaN was encoded")
        } catch {
            let description = MoyaError.encodableMapping(error).errorDescription ?? ""
            #expect(description.contains("ratio"), "\(description)")
        }
    }

    @Test func parameterEncodingAndUnderlyingIncludeTheInnerErrorsDescription() {
        let inner = Failure(reason: "the disk is on fire")
        #expect(MoyaError.parameterEncoding(inner).errorDescription?.contains("the disk is on fire") == true)
        #expect(MoyaError.underlying(inner, nil).errorDescription?.contains("the disk is on fire") == true)
        #expect(MoyaError.encodableMapping(inner).errorDescription?.contains("the disk is on fire") == true)
    }

    @Test func anNSErrorWithoutADescriptionNeverShowsNull() {
        let error = MoyaError.underlying(NSError(domain: "Example", code: 3), nil)
        for text in [error.errorDescription ?? "", error.localizedDescription, "\(error)", String(reflecting: error)] {
            #expect(!text.contains("(null)"), "\(text)")
            #expect(text.contains("Example"), "\(text)")
        }
    }

    @Test func aCocoaErrorWithAFilePathNamesThePath() {
        let inner = CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "/tmp/missing-upload.bin"])
        let description = MoyaError.underlying(inner, nil).errorDescription ?? ""
        #expect(description.contains("/tmp/missing-upload.bin"), "\(description)")
        #expect(!description.contains("(null)"))
    }

    @Test func printingAnErrorShowsItsCaseAndItsExplanation() {
        let error = MoyaError.statusCode(Self.response)
        #expect("\(error)" == "MoyaError.statusCode: \(error.errorDescription ?? "")")
        #expect("\(MoyaError.underlying(Failure(reason: "why"), nil))".contains("why"))
    }
}
