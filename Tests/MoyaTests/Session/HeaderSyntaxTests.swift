import Testing

@testable import Moya

/// The conversion's quick header checks accept exactly what `HeaderValidation` accepts, and
/// refuse with `HeaderValidation`'s own errors.
@Suite("Header syntax")
struct HeaderSyntaxTests {
    /// Every byte alone, and inside an otherwise legal name and value.
    private static let samples: [String] =
        (0..<256).flatMap { byte -> [String] in
            let character = String(decoding: [UInt8(byte)], as: UTF8.self)
            return [character, "X-\(character)-Name", "value \(character) here"]
        } + [
            "", "Accept", "Content-Type", "gzip;q=1.0, deflate;q=0.9", "a\tb", "é", "\u{FFFD}\u{FFFD}er-moya",
            "M-SEARCH",
        ]

    @Test func namesAreAcceptedExactlyWhenHeaderValidationAcceptsThem() {
        for name in Self.samples {
            let quick = HeaderSyntax.problem(name: name, value: "v")
            let full = HeaderValidation.problem(name: name, value: "v")
            #expect(quick?.description == full?.description, "\(name.debugDescription)")
        }
    }

    @Test func valuesAreAcceptedExactlyWhenHeaderValidationAcceptsThem() {
        for value in Self.samples {
            let quick = HeaderSyntax.problem(name: "X-Name", value: value)
            let full = HeaderValidation.problem(name: "X-Name", value: value)
            #expect(quick?.description == full?.description, "\(value.debugDescription)")
        }
    }

    @Test func methodsAreAcceptedExactlyWhenHeaderValidationAcceptsThem() {
        for method in Self.samples {
            let quick = HeaderSyntax.problem(method: method)
            let full = HeaderValidation.problem(method: method)
            #expect(quick?.description == full?.description, "\(method.debugDescription)")
        }
    }

    @Test func aNonASCIINameIsNotAToken() {
        #expect(!HeaderSyntax.isToken("Ünicode"))
        #expect(HeaderSyntax.isToken("X-Trace_ID.1~"))
        #expect(!HeaderSyntax.isToken(""))
    }
}
