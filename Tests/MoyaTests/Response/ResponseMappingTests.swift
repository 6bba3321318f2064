import Foundation
import Moya
import Testing

private struct User: Decodable, Equatable {
    var login: String
    var id: Int
}

/// A type every field of which is optional, so it decodes from `{}`.
private struct Options: Decodable, Equatable {
    var verbose: Bool?
}

@Suite("Response mapping")
struct ResponseMappingTests {
    private func response(_ json: String, statusCode: Int = 200) -> Response {
        Response(statusCode: statusCode, data: Data(json.utf8))
    }

    private func isJSONMapping(_ error: any Error, for response: Response) -> Bool {
        guard case .jsonMapping(let failed)? = error as? MoyaError else { return false }
        return failed === response
    }

    private func isObjectMapping(_ error: any Error, for response: Response) -> Bool {
        guard case .objectMapping(let inner, let failed)? = error as? MoyaError else { return false }
        return failed === response && inner is DecodingError
    }

    private func isStringMapping(_ error: any Error, for response: Response) -> Bool {
        guard case .stringMapping(let failed)? = error as? MoyaError else { return false }
        return failed === response
    }

    // MARK: mapJSON

    @Test func mapJSONReturnsTheObject() throws {
        let json = try response(#"{"login": "ashfurrow", "repos": [1, 2]}"#).mapJSON()
        #expect(json as? NSDictionary == ["login": "ashfurrow", "repos": [1, 2]] as NSDictionary)
    }

    @Test func mapJSONReturnsArraysAndFragments() throws {
        #expect(try response("[1, 2, 3]").mapJSON() as? [Int] == [1, 2, 3])
        #expect(try response(#""text""#).mapJSON() as? String == "text")
        #expect(try response("42").mapJSON() as? Int == 42)
    }

    @Test func mapJSONOfEmptyDataFailsByDefault() {
        let empty = response("")
        #expect {
            try empty.mapJSON()
        } throws: { error in
            isJSONMapping(error, for: empty)
        }
    }

    @Test func mapJSONOfEmptyDataIsNullWhenAllowed() throws {
        #expect(try response("").mapJSON(failsOnEmptyData: false) is NSNull)
    }

    @Test(arguments: ["<html>", "{\"a\": ", "nul"])
    func mapJSONOfInvalidJSONThrowsJSONMapping(body: String) {
        let invalid = response(body)
        #expect {
            try invalid.mapJSON(failsOnEmptyData: false)
        } throws: { error in
            isJSONMapping(error, for: invalid)
        }
    }

    // MARK: mapString

    @Test func mapStringReturnsTheBodyAsText() throws {
        #expect(
            try response("Half measures are as bad as nothing at all. ✨").mapString()
                == "Half measures are as bad as nothing at all. ✨"
        )
        #expect(try response("").mapString() == "")
    }

    @Test func mapStringOfBytesThatAreNotUTF8ThrowsStringMapping() {
        let binary = Response(statusCode: 200, data: Data([0xFF, 0xFE, 0xC3]))
        #expect {
            try binary.mapString()
        } throws: { error in
            isStringMapping(error, for: binary)
        }
    }

    @Test func mapStringAtAKeyPathReturnsTheStringThere() throws {
        let nested = response(#"{"data": {"user": {"name": "Ada"}}, "name": "top"}"#)
        #expect(try nested.mapString(atKeyPath: "name") == "top")
        #expect(try nested.mapString(atKeyPath: "data.user.name") == "Ada")
    }

    @Test(arguments: ["missing", "data.user", "data.count", "data.user.name.more"])
    func mapStringAtAKeyPathWithoutAStringThrowsStringMapping(keyPath: String) {
        let nested = response(#"{"data": {"user": {"name": "Ada"}, "count": 3}}"#)
        #expect {
            try nested.mapString(atKeyPath: keyPath)
        } throws: { error in
            isStringMapping(error, for: nested)
        }
    }

    @Test func mapStringAtAKeyPathOfInvalidJSONThrowsJSONMappingAsMoyaDoes() {
        let invalid = response("not json")
        #expect {
            try invalid.mapString(atKeyPath: "name")
        } throws: { error in
            isJSONMapping(error, for: invalid)
        }
    }

    @Test func mapStringAtAKeyPathOfAnEmptyBodyThrowsJSONMapping() {
        let empty = response("")
        #expect {
            try empty.mapString(atKeyPath: "name")
        } throws: { error in
            isJSONMapping(error, for: empty)
        }
    }

    // MARK: map(_:)

    @Test func mapDecodesAnObject() throws {
        #expect(try response(#"{"login": "ashfurrow", "id": 100}"#).map(User.self) == User(login: "ashfurrow", id: 100))
    }

    @Test func mapDecodesAnArray() throws {
        let users = try response(#"[{"login": "a", "id": 1}, {"login": "b", "id": 2}]"#).map([User].self)
        #expect(users == [User(login: "a", id: 1), User(login: "b", id: 2)])
    }

    @Test func mapUsesTheGivenDecoder() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Repo: Decodable, Equatable { var fullName: String }
        #expect(
            try response(#"{"full_name": "Moya/Moya"}"#).map(Repo.self, using: decoder) == Repo(fullName: "Moya/Moya")
        )
    }

    @Test func mapDecodesAnObjectAtAKeyPath() throws {
        let user = try response(#"{"data": {"login": "ashfurrow", "id": 100}}"#).map(User.self, atKeyPath: "data")
        #expect(user == User(login: "ashfurrow", id: 100))
    }

    @Test func mapDecodesAnArrayAtANestedKeyPath() throws {
        let users = try response(#"{"a": {"b": {"c": [{"login": "x", "id": 7}]}}}"#).map(
            [User].self,
            atKeyPath: "a.b.c"
        )
        #expect(users == [User(login: "x", id: 7)])
    }

    @Test func mapDecodesFragmentsAtAKeyPath() throws {
        let body = response(#"{"meta": {"name": "Moya", "count": 15, "ratio": 0.5, "open": true, "tags": ["a"]}}"#)
        #expect(try body.map(String.self, atKeyPath: "meta.name") == "Moya")
        #expect(try body.map(Int.self, atKeyPath: "meta.count") == 15)
        #expect(try body.map(Double.self, atKeyPath: "meta.ratio") == 0.5)
        #expect(try body.map(Bool.self, atKeyPath: "meta.open") == true)
        #expect(try body.map([String].self, atKeyPath: "meta.tags") == ["a"])
    }

    @Test func mapDecodesATopLevelFragment() throws {
        #expect(try response(#""just text""#).map(String.self) == "just text")
        #expect(try response("7").map(Int.self) == 7)
    }

    @Test func mapAtAMissingKeyPathThrowsJSONMapping() {
        let body = response(#"{"data": {"login": "a", "id": 1}}"#)
        #expect {
            try body.map(User.self, atKeyPath: "data.missing")
        } throws: { error in
            isJSONMapping(error, for: body)
        }
    }

    @Test func mapAtAKeyPathOfInvalidJSONThrowsJSONMapping() {
        let invalid = response("<html></html>")
        #expect {
            try invalid.map(User.self, atKeyPath: "data")
        } throws: { error in
            isJSONMapping(error, for: invalid)
        }
    }

    @Test func mapOfInvalidJSONWithoutKeyPathThrowsObjectMapping() {
        let invalid = response("<html></html>")
        #expect {
            try invalid.map(User.self)
        } throws: { error in
            isObjectMapping(error, for: invalid)
        }
    }

    @Test func mapOfTheWrongShapeThrowsObjectMapping() {
        let wrongShape = response(#"{"login": 5}"#)
        #expect {
            try wrongShape.map(User.self)
        } throws: { error in
            isObjectMapping(error, for: wrongShape)
        }
        let array = response(#"[{"login": "a", "id": 1}]"#)
        #expect {
            try array.map(User.self)
        } throws: { error in
            isObjectMapping(error, for: array)
        }
    }

    @Test func mapOfAWrongFragmentAtAKeyPathThrowsObjectMapping() {
        let body = response(#"{"count": "fifteen"}"#)
        #expect {
            try body.map(Int.self, atKeyPath: "count")
        } throws: { error in
            isObjectMapping(error, for: body)
        }
    }

    @Test func mapOfEmptyDataFailsByDefault() {
        let empty = response("")
        #expect {
            try empty.map(Options.self)
        } throws: { error in
            isObjectMapping(error, for: empty)
        }
        #expect {
            try empty.map(Options.self, atKeyPath: "data")
        } throws: { error in
            isJSONMapping(error, for: empty)
        }
    }

    @Test func mapOfEmptyDataDecodesAnEmptyValueWhenAllowed() throws {
        #expect(try response("").map(Options.self, failsOnEmptyData: false) == Options())
        #expect(try response("").map([Options].self, failsOnEmptyData: false) == [Options()])
        #expect(try response("").map(Options.self, atKeyPath: "data", failsOnEmptyData: false) == Options())
    }

    @Test func aMissingKeyPathDecodesTheWholeBodyWhenEmptyDataIsAllowed() throws {
        let body = response(#"{"verbose": true, "data": {}}"#)
        #expect(try body.map(Options.self, atKeyPath: "missing", failsOnEmptyData: false) == Options(verbose: true))
        let user = response(#"{"login": "ada", "id": 1}"#)
        #expect(try user.map(User.self, atKeyPath: "missing", failsOnEmptyData: false) == User(login: "ada", id: 1))
    }

    @Test func mapOfEmptyDataIntoATypeThatNeedsValuesStillThrowsObjectMapping() {
        let empty = response("")
        #expect {
            try empty.map(User.self, failsOnEmptyData: false)
        } throws: { error in
            isObjectMapping(error, for: empty)
        }
    }

    @Test func mapOfANullAtAKeyPathDecodesAnOptional() throws {
        #expect(try response(#"{"value": null}"#).map(Int?.self, atKeyPath: "value") == nil)
    }
}
