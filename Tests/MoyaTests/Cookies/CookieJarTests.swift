import Dispatch
import Foundation
import Testing

@testable import Moya

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cookie jar over a real storage, with its writer held back: a lookup never waits for a
/// write, and sees what waits to be written.
@Suite("Cookie jar")
struct CookieJarTests {
    private let url = URL(string: "http://example.com/") ?? URL(fileURLWithPath: "/")

    private func storage() -> HTTPCookieStorage {
        HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "moya-jar-\(UUID().uuidString)")
    }

    @Test(.timeLimit(.minutes(1)))
    func aLookupWhileTheWriterIsBusyAnswersFromWhatWaitsWithoutWaiting() async throws {
        let storage = storage()
        let hold = DispatchSemaphore(value: 0)
        let jar = CookieJar(storage: storage) { change, storage in
            hold.wait()
            CookieJar.write(change, to: storage)
        }
        let (written, writtenNow) = AsyncStream<Void>.makeStream()
        jar.store(fields: ["sid=abc; Path=/"], from: url, logger: nil) { writtenNow.finish() }

        // The writer holds: a lookup that waited for it would never return.
        #expect(jar.cookies(for: url).map(\.name) == ["sid"])
        #expect(storage.cookies?.isEmpty ?? true)

        hold.signal()
        for await _ in written {}
        #expect(storage.cookies?.map(\.name) == ["sid"])
        #expect(jar.cookies(for: url).map(\.name) == ["sid"])
    }

    @Test(.timeLimit(.minutes(1)))
    func onceWrittenLookupsReadTheStorageAndSeeWhatTheAppSetThere() async throws {
        let storage = storage()
        let jar = CookieJar(storage: storage)
        let (written, writtenNow) = AsyncStream<Void>.makeStream()
        jar.store(fields: ["sid=abc; Path=/"], from: url, logger: nil) { writtenNow.finish() }
        for await _ in written {}
        let own = try #require(HTTPCookie(properties: [.name: "app", .value: "1", .domain: "example.com", .path: "/"]))
        storage.setCookie(own)
        #expect(jar.cookies(for: url).map(\.name).sorted() == ["app", "sid"])
    }

    @Test func everySessionOfAStorageSharesOneJar() {
        let storage = storage()
        #expect(CookieJar.jar(for: storage) === CookieJar.jar(for: storage))
        #expect(CookieJar.jar(for: storage) !== CookieJar.jar(for: self.storage()))
    }
}
