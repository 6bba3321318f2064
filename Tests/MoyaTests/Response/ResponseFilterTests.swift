import Foundation
import Moya
import Testing

@Suite("Response status code filters")
struct ResponseFilterTests {
    private func response(_ statusCode: Int) -> Response {
        Response(statusCode: statusCode, data: Data("body \(statusCode)".utf8))
    }

    /// Whether `error` is `MoyaError.statusCode` carrying exactly `response`.
    private func isStatusCodeError(_ error: any Error, for response: Response) -> Bool {
        guard case .statusCode(let failed)? = error as? MoyaError else { return false }
        return failed === response
    }

    @Test func filterStatusCodesReturnsTheSameResponseInsideTheRange() throws {
        let ok = response(204)
        #expect(try ok.filter(statusCodes: 200...299) === ok)
        #expect(try ok.filter(statusCodes: 204..<205) === ok)
        #expect(try ok.filter(statusCodes: ...204) === ok)
        #expect(try ok.filter(statusCodes: 204...) === ok)
    }

    @Test(arguments: [199, 300, 404])
    func filterStatusCodesThrowsStatusCodeOutsideTheRange(statusCode: Int) {
        let failing = response(statusCode)
        #expect {
            try failing.filter(statusCodes: 200...299)
        } throws: { error in
            isStatusCodeError(error, for: failing)
        }
    }

    @Test func aHalfOpenRangeExcludesItsUpperBound() {
        let failing = response(300)
        #expect {
            try failing.filter(statusCodes: 200..<300)
        } throws: { error in
            isStatusCodeError(error, for: failing)
        }
    }

    @Test func filterStatusCodeAcceptsOnlyThatCode() throws {
        let created = response(201)
        #expect(try created.filter(statusCode: 201) === created)
        #expect {
            try created.filter(statusCode: 200)
        } throws: { error in
            isStatusCodeError(error, for: created)
        }
    }

    @Test(arguments: [200, 201, 250, 299])
    func filterSuccessfulStatusCodesAcceptsTwoHundreds(statusCode: Int) throws {
        let ok = response(statusCode)
        #expect(try ok.filterSuccessfulStatusCodes() === ok)
    }

    @Test(arguments: [100, 199, 300, 304, 400, 500])
    func filterSuccessfulStatusCodesRejectsTheRest(statusCode: Int) {
        let failing = response(statusCode)
        #expect {
            try failing.filterSuccessfulStatusCodes()
        } throws: { error in
            isStatusCodeError(error, for: failing)
        }
    }

    @Test(arguments: [200, 299, 301, 304, 399])
    func filterSuccessfulStatusAndRedirectCodesAcceptsTwoAndThreeHundreds(statusCode: Int) throws {
        let ok = response(statusCode)
        #expect(try ok.filterSuccessfulStatusAndRedirectCodes() === ok)
    }

    @Test(arguments: [101, 199, 400, 401, 503])
    func filterSuccessfulStatusAndRedirectCodesRejectsTheRest(statusCode: Int) {
        let failing = response(statusCode)
        #expect {
            try failing.filterSuccessfulStatusAndRedirectCodes()
        } throws: { error in
            isStatusCodeError(error, for: failing)
        }
    }

    @Test func theStatusCodeErrorLeadsBackToTheResponse() {
        let failing = response(418)
        do {
            _ = try failing.filterSuccessfulStatusCodes()
            Issue.record("a 418 passed the filter")
        } catch let error as MoyaError {
            #expect(error.response === failing)
            #expect(error.response?.data == Data("body 418".utf8))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
