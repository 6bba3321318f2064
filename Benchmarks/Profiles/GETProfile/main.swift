// The GET benchmark's work, one request at a time, through Moya or AsyncHTTPClient alone, for
// perf and for counting allocations (run twice with different counts: the difference is per
// request).
//
//   swift build -c release --product GETProfile
//   perf record -g .build/release/GETProfile moya http://127.0.0.1:PORT/json 20000
//
// `moya-304` sends the same GET through a session whose memory cache revalidates every request
// (the cache benchmark's `304` revalidation): the URL must answer with an ETag, as nginx's static
// files do.
import AsyncHTTPClient
import Foundation
import Moya
import NIOFoundationCompat

struct JSONAPI: TargetType {
    let baseURL: URL
    var path: String { "" }
    var method: Moya.Method { .get }
    var task: Moya.Task { .requestPlain }
    var headers: [String: String]? { nil }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3, let url = URL(string: arguments[1]), let count = Int(arguments[2]) else {
    print("usage: GETProfile moya|moya-304|ahc|ahc-future URL COUNT")
    exit(2)
}
let mode = arguments[0]
let session =
    mode == "moya-304"
    ? Session(configuration: .init(cache: .memory(maxBytes: 1 << 20, policy: .alwaysRevalidate)))
    : Session()
let provider = MoyaProvider<JSONAPI>(session: session)

// Off the main actor, as the benchmark runs; the globals of this file belong to the main actor,
// so the loop captures them first.
let bytes = try await _Concurrency.Task.detached { [mode, url, count, provider, session] in
    var bytes = 0
    for _ in 0..<count {
        if mode == "moya" || mode == "moya-304" {
            bytes += try await provider.request(JSONAPI(baseURL: url)).data.count
        } else if mode == "ahc-future" {
            let response = try await session.httpClient.execute(request: HTTPClient.Request(url: url)).get()
            bytes += response.body.map { Data(buffer: $0) }?.count ?? 0
        } else {
            let response = try await session.httpClient.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(30))
            bytes += Data(buffer: try await response.body.collect(upTo: 1 << 20)).count
        }
    }
    return bytes
}.value
print("\(count) GETs (\(mode)), \(bytes) bytes")
