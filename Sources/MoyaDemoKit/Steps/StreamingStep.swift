import Foundation
import Moya

extension DemoSteps {
    /// A chat answer streamed as server-sent events, shown word by word as it arrives.
    static let streaming = DemoStep(
        name: "streaming",
        title: "Streaming server-sent events",
        explanation: """
            provider.events(_:) sends the request through the same pipeline and reads the \
            text/event-stream answer as it arrives: each event is parsed at once, and its \
            data decoded in one call.
            """,
        code: """
            let answer = provider.events(.chat(prompt: question))
            for try await event in answer where event.event == "token" {
                print(try event.decode(ChatToken.self).text, terminator: "")
            }
            """,
        needsEmbeddedServer: true
    ) { context in
        let provider = MoyaProvider<Assistant>()
        let indent = "   "
        var column = 0
        var words = 0
        for try await event in provider.events(.chat(prompt: "How does streaming work?")) {
            switch event.event {
            case "token":
                let word = try event.decode(ChatToken.self).text.trimmingCharacters(in: .whitespaces)
                if column == 0 {
                    context.output.write(indent + word)
                    column = indent.count + word.count
                } else if column + 1 + word.count > TextLayout.width {
                    context.output.write("\n" + indent + word)
                    column = indent.count + word.count
                } else {
                    context.output.write(" " + word)
                    column += 1 + word.count
                }
                words += 1
            case "done" where column > 0:
                context.output.write("\n")
                column = 0
            default:
                break
            }
        }
        guard words > 0 else {
            throw DemoStepError("The assistant's answer had no words.")
        }
        context.say("\(words) words arrived as \(words) events, each shown as it came.")
    }
}
