// The OpenAPI peers' GET, one request after another in each of CONCURRENCY tasks, for counting
// instructions (`Benchmarks/instructions.sh`): the client swift-openapi-generator made from the
// benchmark server's routes, on swift-openapi-async-http-client's transport (`ahc`) or on
// `MoyaTransport` through a provider with no plugins (`moya`), both over the `HTTPClient` of
// Moya's default `Session()`, so the same pool and configuration.
//
//   swift build -c release --product OpenAPIProfile
//   .build/release/OpenAPIProfile moya http://127.0.0.1:PORT/json 2048 32
//
// The URL is the server's `/json`: the client calls `GET {server}/json`, so the last path
// component is dropped to make its server URL.
//
// The main thread waits on a semaphore instead of an async `main`: valgrind 3.19 crashes when an
// async `main` returns, and its counts are lost.
import AsyncHTTPClient
import BenchmarkAPI
import Foundation
import Moya
import MoyaOpenAPI
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

let arguments = Array(CommandLine.arguments.dropFirst())
guard (3...4).contains(arguments.count), ["ahc", "moya"].contains(arguments[0]),
    let url = URL(string: arguments[1]), let count = Int(arguments[2]),
    let concurrency = Int(arguments.count == 4 ? arguments[3] : "1"), concurrency > 0
else {
    print("usage: OpenAPIProfile ahc|moya URL COUNT [CONCURRENCY]")
    exit(2)
}
let mode = arguments[0]
let session = Session()
let transport: any ClientTransport =
    if mode == "moya" {
        MoyaTransport(provider: MoyaProvider<OpenAPIOperation>(session: session))
    } else {
        OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport(configuration: .init(client: session.httpClient))
    }
let client = Client(serverURL: url.deletingLastPathComponent(), transport: transport)

/// What the loops found, handed from the task that runs them to the main thread.
final class Outcome: @unchecked Sendable {
    // `@unchecked Sendable`: written once by the task before it signals `done`, read by the main
    // thread only after `done` was signalled; the semaphore orders the two.
    var records: Result<Int, any Error> = .success(0)
    let done = DispatchSemaphore(value: 0)
}
let outcome = Outcome()
// Off the main actor, as the benchmark runs; the globals of this file belong to the main actor,
// so the loop captures them first.
_Concurrency.Task.detached { [client, count, concurrency, outcome] in
    do {
        outcome.records = .success(
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        var records = 0
                        for _ in 0..<(count / concurrency) {
                            records += try await client.getJSON().ok.body.json.count
                        }
                        return records
                    }
                }
                return try await group.reduce(0, +)
            }
        )
    } catch {
        outcome.records = .failure(error)
    }
    outcome.done.signal()
}
outcome.done.wait()
switch outcome.records {
case .success(let records):
    print("\(count) GETs (OpenAPI on \(mode), \(concurrency) at a time), \(records) records")
case .failure(let error):
    print("OpenAPI on \(mode) failed: \(error)")
    exit(1)
}
