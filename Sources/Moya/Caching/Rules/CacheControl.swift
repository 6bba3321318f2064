/// The directives of `Cache-Control` header fields (RFC 9111 5.2), of a request or a response.
///
/// Parsing never fails: a header a server or a user wrote badly yields what can be understood,
/// and the rest is ignored. Where RFC 9111 asks for caution, the caution is built in: an
/// invalid `max-age` reads as `0`, so the response is stale (4.2.1), and a duplicated directive
/// keeps its first value.
struct CacheControl: Sendable, Equatable {
    /// `max-age`, in seconds. For a response, its freshness lifetime; for a request, the oldest
    /// response the client accepts.
    var maxAge: Int?
    /// `s-maxage`: ignored for freshness by a private cache, but it lets a response to a
    /// request with `Authorization` be stored (3.5).
    var sharedMaxAge: Int?
    /// `max-stale` (request): how stale a response may be. A bare `max-stale` is `Int.max`.
    var maxStale: Int?
    /// `min-fresh` (request): how much longer a response must stay fresh.
    var minFresh: Int?
    /// `stale-if-error` (RFC 5861): how long past freshness a response may serve when
    /// revalidation fails.
    var staleIfError: Int?
    /// `no-cache`: the response must be validated before every reuse. The qualified form
    /// (`no-cache="Set-Cookie"`) is treated as the unqualified one, which is stricter.
    var noCache = false
    /// `no-store`: nothing of the request or response is stored.
    var noStore = false
    /// `must-revalidate`: a stale response is never served without a successful validation.
    var mustRevalidate = false
    /// `public`.
    var isPublic = false
    /// `private`: allowed in a private cache, such as this one.
    var isPrivate = false
    /// `only-if-cached` (request): answer from the cache or with a `504`.
    var onlyIfCached = false

    /// No directive.
    init() {}

    /// The directives of every `Cache-Control` field line, in order.
    init<Lines: Sequence<String>>(fieldValues: Lines) {
        for line in fieldValues {
            parse(Array(line.utf8))
        }
    }

    /// The directives of one `Cache-Control` field value.
    init(_ fieldValue: String) {
        self.init(fieldValues: [fieldValue])
    }

    /// The largest delta-seconds value RFC 9111 1.2.2 asks a cache to handle: larger values,
    /// and those that overflow, read as this.
    static let deltaSecondsLimit = 2_147_483_648

    private mutating func parse(_ bytes: [UInt8]) {
        var index = 0
        while index < bytes.count {
            let (name, argument, next) = Self.directive(in: bytes, from: index)
            index = next
            apply(name: name, argument: argument)
        }
    }

    /// Applies one directive; of a duplicated directive with an argument, the first wins.
    private mutating func apply(name: String, argument: String?) {
        switch name {
        case "max-age" where maxAge == nil:
            // Invalid freshness information makes the response stale (4.2.1).
            maxAge = Self.deltaSeconds(argument) ?? 0
        case "s-maxage" where sharedMaxAge == nil:
            sharedMaxAge = Self.deltaSeconds(argument) ?? 0
        case "max-stale" where maxStale == nil:
            // A bare max-stale accepts any staleness; an invalid one accepts none.
            maxStale = argument == nil ? Int.max : Self.deltaSeconds(argument) ?? 0
        case "min-fresh" where minFresh == nil:
            // An invalid min-fresh is ignored: it could only ask for more freshness.
            minFresh = Self.deltaSeconds(argument)
        case "stale-if-error" where staleIfError == nil:
            staleIfError = Self.deltaSeconds(argument)
        case "no-cache":
            noCache = true
        case "no-store":
            noStore = true
        case "must-revalidate":
            mustRevalidate = true
        case "public":
            isPublic = true
        case "private":
            isPrivate = true
        case "only-if-cached":
            onlyIfCached = true
        default:
            // Unknown extensions are ignored (5.2.3).
            break
        }
    }

    /// RFC 9111 1.2.2 `delta-seconds = 1*DIGIT`, quoted or not (5.2 asks recipients to accept
    /// both forms); `nil` when the argument is missing or not a number.
    static func deltaSeconds(_ argument: String?) -> Int? {
        guard let argument, !argument.isEmpty else { return nil }
        var value = 0
        for byte in argument.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), deltaSecondsLimit)
        }
        return value
    }

    /// The directive starting at `start` (after any separators): its lower-cased name, its
    /// argument (unquoted) and the index after it.
    private static func directive(in bytes: [UInt8], from start: Int) -> (String, String?, Int) {
        var index = start
        while index < bytes.count, isSeparator(bytes[index]) {
            index += 1
        }
        let nameStart = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ","),
            !ASCII.isBlank(bytes[index])
        {
            index += 1
        }
        let name = String(decoding: bytes[nameStart..<index].map(ASCII.lowercased), as: UTF8.self)
        index = skipWhitespace(bytes, from: index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
            return (name, nil, skipToComma(bytes, from: index))
        }
        index = skipWhitespace(bytes, from: index + 1)
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let (argument, next) = quotedString(bytes, from: index + 1)
            return (name, argument, skipToComma(bytes, from: next))
        }
        let argumentStart = index
        while index < bytes.count, bytes[index] != UInt8(ascii: ","), !ASCII.isBlank(bytes[index]) {
            index += 1
        }
        let argument = String(decoding: bytes[argumentStart..<index], as: UTF8.self)
        return (name, argument, skipToComma(bytes, from: index))
    }

    /// A quoted string's content, from after its opening quote; an unterminated one runs to
    /// the end.
    private static func quotedString(_ bytes: [UInt8], from start: Int) -> (String, Int) {
        var content: [UInt8] = []
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                return (String(decoding: content, as: UTF8.self), index + 1)
            }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                content.append(bytes[index + 1])
                index += 2
                continue
            }
            content.append(byte)
            index += 1
        }
        return (String(decoding: content, as: UTF8.self), index)
    }

    /// The index after the next comma, or the end: anything before it is not understood.
    private static func skipToComma(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: ",") {
            index += 1
        }
        return min(index + 1, bytes.count)
    }

    private static func skipWhitespace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, ASCII.isBlank(bytes[index]) {
            index += 1
        }
        return index
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        ASCII.isBlank(byte) || byte == UInt8(ascii: ",")
    }
}
