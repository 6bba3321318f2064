import Foundation
import Moya

extension DemoSteps {
    /// A large download to a file, with progress.
    static let download = DemoStep(
        name: "download",
        title: "A large download with a progress bar",
        explanation: """
            A task of .downloadDestination streams the body to a temporary file and moves it \
            where the destination says once the response succeeds. requestWithProgress \
            reports the progress as an AsyncSequence.
            """,
        code: """
            let destination: DownloadDestination = { _, _ in
                (fileURL, [.removePreviousFile, .createIntermediateDirectories])
            }
            let target = GitHub.download(bytes: 32 << 20, destination: destination)
            for try await event in provider.requestWithProgress(target) {
                bar.update(event.progressObject)
            }
            """,
        needsEmbeddedServer: true
    ) { context in
        let directory = context.temporaryDirectory
            .appendingPathComponent("moya-demo-\(UUID().uuidString)", isDirectory: true)
        let fileURL = directory.appendingPathComponent("large.bin")
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination: DownloadDestination = { _, _ in
            (fileURL, [.removePreviousFile, .createIntermediateDirectories])
        }

        let provider = MoyaProvider<GitHub>()
        let bar = ProgressBar(output: context.output)
        let clock = ContinuousClock()
        let start = clock.now
        var response: Response?
        for try await event in provider.requestWithProgress(
            .download(bytes: context.downloadBytes, destination: destination)
        ) {
            if let progress = event.progressObject {
                bar.update(completed: progress.completedUnitCount, total: progress.totalUnitCount)
            }
            response = event.response ?? response
        }
        // The last event may come before the bar reached 100 %: events are snapshots.
        bar.update(completed: Int64(context.downloadBytes), total: Int64(context.downloadBytes))
        bar.finish()
        let elapsed = clock.now - start

        let size = (try FileManager.default.attributesOfItem(atPath: fileURL.path)[.size] as? NSNumber)?.intValue ?? -1
        guard response?.statusCode == 200, size == context.downloadBytes else {
            throw DemoStepError("Expected \(context.downloadBytes) bytes on disk, found \(size).")
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let megabytes = Double(size) / 1_048_576
        let summary = String(format: "%.1f MB in %.1f s", megabytes, seconds)
        context.say("\(summary), saved as \(fileURL.lastPathComponent); file removed.")
    }
}
