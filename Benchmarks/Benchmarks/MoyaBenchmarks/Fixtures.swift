import Foundation
import Moya

/// The API the benchmarks call, with a base URL known only at run time.
struct BenchAPI: TargetType {
    enum Operation: Sendable {
        case getJSON
        /// `GET /cached`, which nginx marks fresh for an hour.
        case getCachedJSON
        case postJSON(Data)
        case download(to: URL)
        case uploadPart(file: URL)
    }

    let baseURL: URL
    let operation: Operation

    var path: String {
        switch operation {
        case .getJSON: return "/json"
        case .getCachedJSON: return "/cached"
        case .postJSON: return "/echo"
        case .download: return "/download"
        case .uploadPart: return "/upload"
        }
    }

    var method: Moya.Method {
        switch operation {
        case .getJSON, .getCachedJSON, .download: return .get
        case .postJSON, .uploadPart: return .post
        }
    }

    var task: Moya.Task {
        switch operation {
        case .getJSON, .getCachedJSON:
            return .requestPlain
        case .postJSON(let body):
            return .requestData(body)
        case .download(let destination):
            return .downloadDestination { _, _ in (destination, [.removePreviousFile]) }
        case .uploadPart(let file):
            return .uploadMultipart([MultipartFormData(provider: .file(file), name: "file", mimeType: "application/octet-stream")])
        }
    }

    var headers: [String: String]? {
        switch operation {
        case .postJSON: return ["Content-Type": "application/json", "Accept": "application/json"]
        default: return ["Accept": "application/json"]
        }
    }

    var sampleData: Data { Payloads.json1KB }
}

/// Adds a header, as an authentication or tracing plugin would.
struct HeaderPlugin: PluginType {
    func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
        var request = request
        request.setValue("Bearer benchmark", forHTTPHeaderField: "Authorization")
        return request
    }
}

/// The two plugins of the stub benchmark: one rewrites the request, one observes its life.
func twoPlugins() -> [PluginType] {
    [HeaderPlugin(), NetworkActivityPlugin { _, _ in }]
}

/// The bodies the benchmarks send, serve and decode.
enum Payloads {
    /// One record of the JSON bodies: a typical API object.
    struct Record: Codable, Sendable {
        var id: Int
        var name: String
        var email: String
        var active: Bool
        var score: Double
        var tags: [String]
    }

    static func records(count: Int) -> [Record] {
        (0..<count).map { index in
            Record(
                id: index,
                name: "user \(index)",
                email: "user\(index)@example.com",
                active: index.isMultiple(of: 2),
                score: Double(index) * 1.5,
                tags: ["alpha", "beta", "gamma"]
            )
        }
    }

    /// How many records make about `bytes` bytes of JSON.
    static func recordCount(approximately bytes: Int) -> Int {
        let one = (try? JSONEncoder().encode(records(count: 1)).count) ?? 100
        return max(1, bytes / one)
    }

    /// JSON of about `bytes` bytes: an array of records.
    static func json(approximately bytes: Int) -> Data {
        let data = (try? JSONEncoder().encode(records(count: recordCount(approximately: bytes)))) ?? Data()
        precondition(!data.isEmpty, "Could not encode the benchmark payload.")
        return data
    }

    /// What `GET /json` serves (and what stubs answer).
    static let json1KB = json(approximately: 1024)
    /// What `POST /echo` receives.
    static let json64KB = json(approximately: 64 * 1024)
    /// The records of `json64KB`, which the generated OpenAPI client encodes itself.
    static let json64KBRecordCount = recordCount(approximately: 64 * 1024)
    /// What `map(Decodable)` decodes.
    static let json1MB = json(approximately: 1024 * 1024)

    /// The size of the download and of the uploaded file part: `MOYA_BENCH_TRANSFER_BYTES`,
    /// 1 GiB by default.
    static let transferBytes: Int = {
        if let value = ProcessInfo.processInfo.environment["MOYA_BENCH_TRANSFER_BYTES"] {
            guard let bytes = Int(value), bytes > 0 else {
                fatalError("MOYA_BENCH_TRANSFER_BYTES must be a positive number of bytes, not \"\(value)\".")
            }
            return bytes
        }
        return 1 << 30
    }()
}

/// Twenty parameters of the kinds URL encoding meets: text that needs escaping, numbers,
/// booleans, an array and a nested dictionary.
func twentyParameters() -> [String: Any] {
    var parameters: [String: Any] = [:]
    for index in 0..<14 {
        parameters["field\(index)"] = "value \(index) & more/ü"
    }
    parameters["page"] = 3
    parameters["perPage"] = 50
    parameters["ratio"] = 0.75
    parameters["verbose"] = true
    parameters["ids"] = [1, 2, 3, 4]
    parameters["filter"] = ["state": "open", "label": "bug"]
    return parameters
}
