import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST /chat`: answers a prompt word by word, as server-sent events, the way a language
/// model's API streams its output.
enum ChatRoute {
    /// The pause between words, so that the answer is seen arriving.
    static let wordInterval: UInt64 = 60_000_000

    private struct Prompt: Decodable {
        let prompt: String
    }

    static func add(to router: Router<BasicRequestContext>) {
        router.post("chat") { request, context -> Response in
            let prompt = try await request.decode(as: Prompt.self, context: context).prompt
            let words = answer(to: prompt).split(separator: " ").map { String($0) + " " }
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: ": the assistant is typing\n\n"))
                    for (index, word) in words.enumerated() {
                        try await _Concurrency.Task.sleep(nanoseconds: wordInterval)
                        let data = try String(decoding: JSONEncoder().encode(["text": word]), as: UTF8.self)
                        try await writer.write(ByteBuffer(string: "event: token\nid: \(index + 1)\ndata: \(data)\n\n"))
                    }
                    try await writer.write(ByteBuffer(string: "event: done\ndata: [DONE]\n\n"))
                    try await writer.finish(nil)
                }
            )
        }
    }

    private static func answer(to prompt: String) -> String {
        "You asked: \"\(prompt)\". Moya streams this answer as server-sent events: each word is an "
            + "event, parsed as it arrives and decoded into a Swift value, while the connection stays open."
    }
}
