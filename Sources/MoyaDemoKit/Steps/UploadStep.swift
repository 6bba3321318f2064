import Foundation
import Moya

extension DemoSteps {
    /// A multipart upload with a file part.
    static let upload = DemoStep(
        name: "upload",
        title: "Multipart upload",
        explanation: """
            A task of .uploadMultipart sends a multipart/form-data body. File parts are \
            streamed from disk, never read into memory whole.
            """,
        code: """
            case .upload(let title, let notes):
                return .uploadMultipart([
                    MultipartFormData(provider: .data(Data(title.utf8)), name: "title"),
                    MultipartFormData(provider: .file(notes), name: "notes",
                                      mimeType: "text/plain"),
                ])
            """,
        needsEmbeddedServer: true
    ) { context in
        let notesURL = context.temporaryDirectory
            .appendingPathComponent("moya-demo-notes-\(UUID().uuidString).txt")
        let line = "Moya on AsyncHTTPClient: targets, plugins and stubs, on every platform.\n"
        try Data(String(repeating: line, count: 2_000).utf8).write(to: notesURL)
        defer { try? FileManager.default.removeItem(at: notesURL) }

        let provider = MoyaProvider<GitHub>()
        let receipt = try await provider.request(
            .upload(title: "Release notes", notes: notesURL),
            as: UploadReceipt.self
        )
        guard receipt.parts == ["title", "notes"] else {
            throw DemoStepError("The server received the parts \(receipt.parts), not title and notes.")
        }
        context.say(
            "the server received \(receipt.bytes) bytes in \(receipt.parts.count) parts: \(receipt.parts.joined(separator: ", "))"
        )
    }
}
