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
        let error = MoyaError.parameterEncoding(ParameterEncodingError.invalidJSONObject(path: "$.when", reason: "a Date"))
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
}
