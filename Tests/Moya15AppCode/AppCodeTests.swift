// swift-format-ignore-file
// Moya 15 app code, kept exactly as apps write it: not formatted.
import Foundation
import Moya
import XCTest

/// Unit tests as Moya 15 users write them: stubbed providers whose results are read on the line
/// after `request`, plugins with plain state, a main-actor view model.
final class AppCodeTests: XCTestCase {
    func testAnImmediateStubCompletesBeforeRequestReturns() {
        let provider = Providers.stubbed()
        var message: String?
        provider.request(.zen) { result in
            if case let .success(response) = result {
                message = try? response.mapString()
            }
        }
        XCTAssertEqual(message, "Half measures are as bad as nothing at all.")
    }

    func testCompletionsAppendToACapturedLocalArray() {
        let provider = Providers.stubbed()
        var statusCodes: [Int] = []
        for name in ["ashfurrow", "moya"] {
            provider.request(.userProfile(name)) { result in
                statusCodes.append((try? result.get())?.statusCode ?? -1)
            }
        }
        XCTAssertEqual(statusCodes, [200, 200])
    }

    func testPluginsWithPlainStateSeeEveryStubbedRequest() {
        let counter = CountingPlugin()
        let header = HeaderPlugin()
        header.headerValue = "2"
        let provider = Providers.stubbed(plugins: [counter, header])
        var sentHeader: String?
        provider.request(.zen) { result in
            sentHeader = (try? result.get())?.request?.value(forHTTPHeaderField: "X-App-Version")
        }
        XCTAssertEqual(counter.sent, 1)
        XCTAssertEqual(counter.received, 1)
        XCTAssertEqual(counter.lastTarget, "zen")
        XCTAssertEqual(sentHeader, "2")
    }

    func testATargetCarryingAnyParametersSendsThemAsJSON() throws {
        let provider = Providers.stubbed()
        var body: [String: Any]?
        provider.request(.signIn(parameters: ["user": "moya", "remember": true])) { result in
            if let data = (try? result.get())?.request?.httpBody {
                body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            }
        }
        XCTAssertEqual(body?["user"] as? String, "moya")
        XCTAssertEqual(body?["remember"] as? Bool, true)
    }

    func testTheDemoFormatterAndAMutatedConfigurationLogTheResponseBody() {
        var lines: [String] = []
        let logger = Plugins.logger()
        logger.configuration.output = { _, items in lines.append(contentsOf: items) }
        let provider = Providers.stubbed(plugins: [logger])
        provider.request(.userProfile("moya")) { _ in }
        XCTAssertTrue(lines.contains { $0.contains("Response Body") && $0.contains("\"login\" : \"moya\"") }, "\(lines)")
    }

    func testAccessTokenAndActivityPluginsReadTheAppsState() {
        let store = TokenStore()
        store.token = "fresh"
        let activity = ActivityLog()
        let provider = Providers.stubbed(plugins: [Plugins.accessToken(store), Plugins.activity(activity)])
        provider.request(.zen) { _ in }
        XCTAssertEqual(activity.began, 1)
        XCTAssertEqual(activity.ended, 1)
    }

    func testAProviderSubclassSeesEveryRequest() {
        let provider = OnlineProvider<GitHub>(stubClosure: MoyaProvider.immediatelyStub)
        var statusCode: Int?
        _ = provider.request(.zen) { result in
            statusCode = (try? result.get())?.statusCode
        }
        XCTAssertEqual(provider.requestsMade, 1)
        XCTAssertEqual(statusCode, 200)
    }

    func testCustomEndpointsAndMultiTargetAnswerFromSampleData() {
        let provider = Providers.customEndpoints()
        var login: String?
        provider.request(.userProfile("ash")) { result in
            login = (try? (try? result.get())?.map(User.self))??.login
        }
        XCTAssertEqual(login, "ash")

        let multi = MoyaProvider<MultiTarget>(stubClosure: MoyaProvider.immediatelyStub)
        var text: String?
        multi.request(MultiTarget(GitHub.zen)) { result in
            text = try? result.get().mapString()
        }
        XCTAssertEqual(text, "Half measures are as bad as nothing at all.")
    }

    func testADelayedStubCompletesOnTheMainQueue() {
        let provider = Providers.delayed()
        let done = expectation(description: "completion")
        var onMain = false
        provider.request(.zen) { _ in
            onMain = Thread.isMainThread
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertTrue(onMain)
    }

    func testATokenCancelledBeforeTheDelayedStubAnswersCompletesWithCancellation() {
        let provider = Providers.delayed()
        let done = expectation(description: "completion")
        var cancelled = false
        let token = provider.request(.zen) { result in
            if case let .failure(error) = result, case .underlying = error {
                cancelled = true
            }
            done.fulfill()
        }
        token.cancel()
        wait(for: [done], timeout: 10)
        XCTAssertTrue(token.isCancelled)
        XCTAssertTrue(cancelled)
    }

    @MainActor
    func testAMainActorViewModelUpdatesItselfFromCompletions() async {
        let model = ProfileViewModel(provider: Providers.stubbed())
        model.load("ashfurrow")
        XCTAssertEqual(model.login, "ashfurrow")
        await model.loadRepositories("moya")
        XCTAssertEqual(model.repositories, ["moya-repo"])
        let statusCode = await model.reloadCurrent()
        XCTAssertEqual(statusCode, 200)
    }
}
