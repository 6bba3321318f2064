import AsyncHTTPClient
import Foundation
import FuzzSupport
@testable import Moya

/// URLRequest → AsyncHTTPClient conversion with arbitrary header bytes, as the pipeline runs
/// it: header validation, then `makeRequest` with the session's default headers. Whatever
/// the bytes, either an error is thrown (a `MoyaError` or a header validation error) or the
/// converted request holds only legal header names and values (RFC 9110 token and
/// field-value) and a token method, with every header the request set.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let settings = input.byte()

    let urls = [
        "https://api.example.test/items?page=1",
        "http://127.0.0.1:8080/",
        "ftp://files.example.test/",
        "https:///no-host",
        "file:///tmp/x",
        "http://[::1]/path",
    ]
    let urlString = settings & 0x80 == 0 ? urls[Int(settings & 0x7) % urls.count] : input.string()
    guard let url = URL(string: urlString) else { return 0 }
    var request = URLRequest(url: url)

    let methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
    if settings & 0x08 != 0 {
        request.httpMethod = input.string()
    } else {
        request.httpMethod = methods[input.int(below: methods.count)]
    }

    for _ in 0..<input.int(below: 6) {
        let name = input.string()
        let value = input.string()
        if input.bool() {
            request.addValue(value, forHTTPHeaderField: name)
        } else {
            request.setValue(value, forHTTPHeaderField: name)
        }
    }
    var sessionHeaders: [String: String] = [:]
    if settings & 0x10 != 0 {
        for _ in 0..<input.int(below: 4) {
            sessionHeaders[input.string()] = input.string()
        }
    }

    let fields = request.allHTTPHeaderFields ?? [:]
    // The pipeline's own check: it must refuse exactly the illegal methods and headers.
    let problem = HeaderValidation.problem(in: request)
    let illegal = fields.first { !isLegal(name: $0.key, value: $0.value) }.map { "header \($0.key.debugDescription): \($0.value.debugDescription)" }
        ?? (isToken(request.httpMethod ?? "GET") ? nil : "method \(request.httpMethod!.debugDescription)")
    check((problem == nil) == (illegal == nil),
        "HeaderValidation says \(String(describing: problem)) but the RFC 9110 check finds \(illegal ?? "nothing")")
    if problem != nil { return 0 }

    let converted: HTTPClient.Request
    do {
        converted = try HTTPRequestConversion.makeRequest(request, sessionHeaders: SessionHeaders(sessionHeaders), body: nil)
    } catch is MoyaError {
        return 0
    } catch let error as MoyaClientError where error.code == .invalidHeader || error.code == .invalidMethod {
        return 0
    } catch let error as HTTPClientError {
        // AsyncHTTPClient refuses URLs it cannot send to; Moya's pipeline wraps that error.
        check(error == .emptyHost || error == .unsupportedScheme(url.scheme ?? "") || error == .emptyScheme
            || error == .invalidURL, "makeRequest threw \(error)")
        return 0
    } catch {
        propertyFailed("makeRequest threw a \(type(of: error)): \(error)")
    }

    for (name, value) in converted.headers {
        check(isLegal(name: name, value: value),
            "an illegal header reached the request: \(name.debugDescription): \(value.debugDescription)")
    }
    check(isToken(converted.method.rawValue), "an illegal method reached the request: \(converted.method.rawValue.debugDescription)")
    for (name, value) in fields {
        check(values(named: name, in: converted.headers).contains(value), "the header \(name): \(value) was lost")
    }
    // Session headers the request does not set are added; of two session headers whose names
    // differ only in case, one is.
    for (name, _) in sessionHeaders where fields.keys.allSatisfy({ $0.lowercased() != name.lowercased() }) {
        let candidates = sessionHeaders.filter { $0.key.lowercased() == name.lowercased() }.map(\.value)
        let sent = values(named: name, in: converted.headers)
        check(sent.count == 1 && candidates.contains(sent[0]),
            "the session header \(name) became \(sent), not one of \(candidates)")
    }
    return 0
}

/// The values of the headers named `name`, ignoring ASCII case only. `HTTPHeaders`' own
/// subscript also takes "^" for "~" (it folds case by clearing bit 5 of every byte), which
/// would count two different session headers as one.
private func values<Headers: Sequence>(named name: String, in headers: Headers) -> [String]
where Headers.Element == (name: String, value: String) {
    headers.filter { HeaderValidation.isSameName($0.name, name) }.map(\.value)
}

private let tokenBytes = Set(Array("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8))

/// RFC 9110: `token = 1*tchar`.
private func isToken(_ string: String) -> Bool {
    !string.isEmpty && string.utf8.allSatisfy(tokenBytes.contains)
}

/// RFC 9110 field names are tokens; a field value holds visible bytes (VCHAR / obs-text),
/// spaces and tabs, and never CR, LF, NUL or any other control byte.
private func isLegal(name: String, value: String) -> Bool {
    isToken(name) && value.utf8.allSatisfy { $0 == 0x09 || $0 == 0x20 || (0x21...0x7E).contains($0) || $0 >= 0x80 }
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver, calling `fuzz` with each input.
@_cdecl("FuzzRequestConversion_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { data, count in
        fuzz(data.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!, count)
    }
}
