import Benchmark
import Foundation

/// Registers the three variants of a transfer of `Payloads.transferBytes` bytes. The
/// downloaded file is removed after each iteration, outside the measurement.
func transferTrio(
    _ name: String,
    _ configuration: Benchmark.Configuration,
    moya: @escaping @Sendable (Network, TransferFiles) async throws -> Void,
    baseline: @escaping @Sendable (Baseline, TransferFiles) async throws -> Void
) {
    let variants: [(String, @Sendable (Network, TransferFiles) async throws -> Void)] = [
        ("Moya", moya),
        ("AHC raw", { try await baseline($0.baseline(.raw), $1) }),
        ("AHC+Data", { try await baseline($0.baseline(.data), $1) }),
    ]
    for (who, work) in variants {
        Benchmark("\(name) · \(who)", configuration: configuration) { benchmark, fixture in
            benchmark.measurement(requestsMetric, 1)
            try await work(fixture.network, fixture.files)
            benchmark.stopMeasurement()
            try? FileManager.default.removeItem(at: fixture.files.downloadDestination)
        } setup: {
            (network: try await Network.start(), files: try TransferFiles())
        }
    }
}

/// A file of `Payloads.transferBytes` bytes to upload, and a path to download to. The names
/// are fixed so that an interrupted run leaves no more than two files behind, which `run.sh`
/// removes.
struct TransferFiles: Sendable {
    let uploadFile: URL
    let downloadDestination: URL

    init() throws {
        let directory = FileManager.default.temporaryDirectory
        uploadFile = directory.appendingPathComponent("moya-benchmark-upload")
        downloadDestination = directory.appendingPathComponent("moya-benchmark-download")
        // A sparse file: its zeros cost no disk and are read from memory, so the benchmark
        // measures the client rather than the disk.
        guard FileManager.default.createFile(atPath: uploadFile.path, contents: nil) else {
            throw BenchmarkFailure("Cannot create \(uploadFile.path)")
        }
        let handle = try FileHandle(forWritingTo: uploadFile)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(Payloads.transferBytes))
    }
}
