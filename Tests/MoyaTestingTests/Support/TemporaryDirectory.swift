import Foundation

/// A fresh folder for one test's fixtures and downloads, removed when the test ends.
struct TemporaryDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("MoyaTestingTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Every regular file below the folder, as paths relative to it, sorted.
    func files() -> [String] {
        guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
        else {
            return []
        }
        var paths: [String] = []
        for case let file as URL in enumerator
        where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            paths.append(
                String(file.resolvingSymlinksInPath().path.dropFirst(url.resolvingSymlinksInPath().path.count + 1))
            )
        }
        return paths.sorted()
    }

    /// The text of every file below the folder, joined.
    func allText() throws -> String {
        try files().map { try String(contentsOf: url.appendingPathComponent($0), encoding: .utf8) }.joined(
            separator: "\n"
        )
    }
}
