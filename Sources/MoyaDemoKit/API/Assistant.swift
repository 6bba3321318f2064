import Foundation
import Moya

/// A chat assistant that streams its answer as server-sent events, one word at a time, as
/// language-model APIs do. Only the embedded server has it.
public enum Assistant {
    /// `POST /chat` with `{"prompt": ...}`: `token` events (`{"text": "word "}`), then `done`.
    case chat(prompt: String)
}

extension Assistant: TargetType {
    public var baseURL: URL { DemoConfiguration.baseURL }

    public var path: String { "/chat" }

    public var method: Moya.Method { .post }

    public var task: Moya.Task {
        switch self {
        case .chat(let prompt):
            return .requestJSONEncodable(["prompt": prompt])
        }
    }

    public var sampleData: Data {
        Data("event: token\ndata: {\"text\":\"Hello \"}\n\nevent: done\ndata: [DONE]\n\n".utf8)
    }

    public var validationType: ValidationType { .successCodes }

    public var headers: [String: String]? { ["Accept": "text/event-stream"] }
}

/// One `token` event's data.
struct ChatToken: Decodable, Sendable {
    let text: String
}
