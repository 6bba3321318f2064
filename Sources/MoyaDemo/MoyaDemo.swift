import Foundation
import Moya

/// Walks through Moya against an embedded server (or `--base-url URL`).
@main
struct MoyaDemo {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        var serverTask: _Concurrency.Task<Void, Error>?
        if let index = arguments.firstIndex(of: "--base-url"), arguments.indices.contains(index + 1),
           let url = URL(string: arguments[index + 1]) {
            DemoConfiguration.baseURL = url
        } else {
            do {
                let server = try await DemoServer.start()
                DemoConfiguration.baseURL = server.url
                serverTask = server.task
            } catch {
                print("Could not start the embedded server: \(error)")
                exit(1)
            }
        }
        print("Moya demo against \(DemoConfiguration.baseURL.absoluteString)\n")

        let steps = DemoSteps()
        let failures = await steps.runAll()
        serverTask?.cancel()
        print("\n\(steps.count - failures) of \(steps.count) steps succeeded.")
        exit(failures == 0 ? 0 : 1)
    }
}
