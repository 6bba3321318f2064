import Foundation
import FuzzSupport
@testable import Moya

/// The HTTP cache's parsers on arbitrary bytes, by the first byte's mode:
///
/// - 0: `Cache-Control` field values. Never a trap; numbers stay within RFC 9111's bounds; the
///   result does not depend on the case of ASCII letters nor on leading separators; and a
///   directive list rendered from known values, with random spacing, case, quoting and unknown
///   extensions, parses back to those values.
/// - 1: HTTP dates. Never a trap; a date read, written again as an IMF-fixdate, reads the same.
/// - 2: disk entries with a valid checksum over arbitrary content (so that the decoder past the
///   checksum is reached). Never a trap; an entry that decodes encodes to bytes that decode to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    switch input.byte() % 3 {
    case 0:
        if input.bool() {
            checkRendered(&input)
        } else {
            checkFieldValues(&input)
        }
    case 1:
        checkDate(input.string())
    default:
        checkEntry(input.rest())
    }
    return 0
}

private func checkFieldValues(_ input: inout FuzzInput) {
    var lines: [String] = []
    while !input.isAtEnd, lines.count < 4 {
        lines.append(input.string())
    }
    let control = CacheControl(fieldValues: lines)
    let limit = CacheControl.deltaSecondsLimit
    for (name, value) in [("max-age", control.maxAge), ("s-maxage", control.sharedMaxAge), ("min-fresh", control.minFresh),
        ("stale-if-error", control.staleIfError)]
    {
        check(value.map { (0...limit).contains($0) } ?? true, "\(name) = \(String(describing: value)) from \(lines)")
    }
    check(control.maxStale.map { (0...limit).contains($0) || $0 == Int.max } ?? true, "max-stale out of bounds from \(lines)")
    check(CacheControl(fieldValues: lines.map(asciiUppercased)) == control, "case changed the meaning of \(lines)")
    check(CacheControl(fieldValues: lines.map { " ,\t, " + $0 }) == control, "leading separators changed \(lines)")
}

/// Renders directives from known values and checks that they parse back.
private func checkRendered(_ input: inout FuzzInput) {
    var expected = CacheControl()
    var parts: [String] = []
    for _ in 0..<input.int(below: 12) {
        let seconds = Int(input.uint64() % 100_000)
        let quoted = input.bool()
        let argument = quoted ? "\"\(seconds)\"" : "\(seconds)"
        let name: String
        switch input.int(below: 9) {
        case 0:
            name = "max-age=" + argument
            if expected.maxAge == nil { expected.maxAge = seconds }
        case 1:
            name = "min-fresh=" + argument
            if expected.minFresh == nil { expected.minFresh = seconds }
        case 2:
            name = "stale-if-error=" + argument
            if expected.staleIfError == nil { expected.staleIfError = seconds }
        case 3:
            name = "no-store"
            expected.noStore = true
        case 4:
            name = "no-cache=\"Set-Cookie, X-Other\""
            expected.noCache = true
        case 5:
            name = "must-revalidate"
            expected.mustRevalidate = true
        case 6:
            name = "only-if-cached"
            expected.onlyIfCached = true
        case 7:
            name = "private"
            expected.isPrivate = true
        default:
            // An extension RFC 9111 asks recipients to ignore; never one of the names above.
            let letters = input.chunk().prefix(8).map { ["x", "y", "z"][Int($0) % 3] }.joined()
            name = "ext-" + letters + (input.bool() ? "=\"a,b\"" : "=token")
        }
        let spaced = (input.bool() ? " " : "") + name + (input.bool() ? "\t" : "")
        parts.append(input.bool() ? asciiUppercased(spaced) : spaced)
    }
    let rendered = parts.joined(separator: input.bool() ? "," : ", ")
    check(CacheControl(rendered) == expected, "\(rendered.debugDescription) parsed as \(CacheControl(rendered)), not \(expected)")
}

private func checkDate(_ text: String) {
    guard let date = HTTPDate.parse(text) else { return }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    let written = formatter.string(from: date)
    check(HTTPDate.parse(written) == date, "\(text.debugDescription) read as \(date), written as \(written), read back differently")
}

private func checkEntry(_ content: [UInt8]) {
    let keyDigest = Array(content.prefix(32))
    var bytes = Array(CachedResponse.magic) + keyDigest + content.dropFirst(32)
    bytes += CachedResponse.checksum(Data(bytes))
    guard let entry = CachedResponse(decoding: Data(bytes), keyDigest: keyDigest) else { return }
    let again = entry.encoded(keyDigest: keyDigest)
    check(CachedResponse(decoding: again, keyDigest: keyDigest) == entry, "an entry did not survive re-encoding")
}

private func asciiUppercased(_ string: String) -> String {
    String(decoding: string.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 32 : $0 }, as: UTF8.self)
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver, calling `fuzz` with each input.
@_cdecl("FuzzCacheControl_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { data, count in
        fuzz(data.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!, count)
    }
}
