import Foundation
import Testing

@testable import Moya

/// The key `trackInflights` shares requests by: computed once per call, from what goes on the
/// wire.
@Suite("In-flight keys")
struct InflightKeyTests {
    /// Counts how often it is encoded.
    struct CountingBody: Encodable {
        let encodings: Counter

        func encode(to encoder: Encoder) throws {
            encodings.increment()
            var container = encoder.singleValueContainer()
            try container.encode(["name": "moya"])
        }
    }

    private func endpoint(
        _ task: Moya.Task,
        method: Moya.Method = .post,
        url: String = "https://api.example.test/items"
    )
        -> Endpoint
    {
        Endpoint(
            url: url,
            sampleResponseClosure: { .networkResponse(200, Data()) },
            method: method,
            task: task,
            httpHeaderFields: nil
        )
    }

    @Test func aCallThatJoinsARequestInFlightRunsTheTargetsEncoderOnce() async {
        let encodings = Counter()
        let gate = DispatchSemaphore(value: 0)
        let answers = Counter()
        let provider = gatedTrackingProvider(DynamicTarget.self, answers: answers, gate: gate)
        let target = DynamicTarget(baseURL: URL(fileURLWithPath: "/"), path: "/items", method: .post) {
            .requestJSONEncodable(CountingBody(encodings: encodings))
        }
        let queue = DispatchQueue(label: "inflight-key-tests")
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let remaining = Counter()
            for _ in 0..<2 {
                provider.request(target, callbackQueue: queue) { _ in
                    if remaining.increment() == 2 { done.resume() }
                }
            }
            gate.signal()
        }
        // The first call: once for its key, once for the request sent. The second: once for
        // its key. Hashing and comparing endpoints inside the table would run it again each time.
        #expect(encodings.count == 3)
        #expect(answers.count == 1)
    }

    @Test func jsonBodiesDifferingInKeyOrderGiveTheSameKey() {
        let first = endpoint(.requestData(Data(#"{"a":1,"b":2}"#.utf8)))
        let second = endpoint(.requestData(Data(#"{"b":2,"a":1}"#.utf8)))
        #expect(InflightKey(first) == InflightKey(second))
        #expect(InflightKey(first).hashValue == InflightKey(second).hashValue)
    }

    @Test func methodsURLsAndBodiesTellKeysApart() {
        let base = endpoint(.requestData(Data("a".utf8)))
        #expect(InflightKey(base) != InflightKey(endpoint(.requestData(Data("b".utf8)))))
        #expect(InflightKey(base) != InflightKey(endpoint(.requestData(Data("a".utf8)), method: .put)))
        #expect(
            InflightKey(base)
                != InflightKey(endpoint(.requestData(Data("a".utf8)), url: "https://api.example.test/other"))
        )
    }

    @Test func uploadsAreTellApartByTheirFilesPartsAndStreams() {
        let file = URL(fileURLWithPath: "/tmp/a.bin")
        #expect(InflightKey(endpoint(.uploadFile(file))) == InflightKey(endpoint(.uploadFile(file))))
        #expect(
            InflightKey(endpoint(.uploadFile(file)))
                != InflightKey(endpoint(.uploadFile(URL(fileURLWithPath: "/tmp/b.bin"))))
        )

        let dataPart = { (text: String) in MultipartFormData(provider: .data(Data(text.utf8)), name: "note") }
        #expect(
            InflightKey(endpoint(.uploadMultipart([dataPart("x")])))
                == InflightKey(endpoint(.uploadMultipart([dataPart("x")])))
        )
        #expect(
            InflightKey(endpoint(.uploadMultipart([dataPart("x")])))
                != InflightKey(endpoint(.uploadMultipart([dataPart("y")])))
        )

        // Both streams alive at once, as both requests' endpoints keep theirs while in flight.
        let streams = [InputStream(data: Data("s".utf8)), InputStream(data: Data("s".utf8))]
        let keys = streams.map {
            InflightKey(endpoint(.uploadMultipart([MultipartFormData(provider: .stream($0, 1), name: "log")])))
        }
        #expect(keys[0] != keys[1])
    }

    @Test func anEndpointThatBuildsNoRequestStillHasAKey() {
        let broken = endpoint(.requestPlain, url: "some invalid URL")
        #expect(InflightKey(broken) == InflightKey(endpoint(.requestPlain, url: "some invalid URL")))
        #expect(InflightKey(broken) != InflightKey(endpoint(.requestPlain, url: "other invalid URL")))
    }
}
