/// A value from the user's code — a target, a plugin, a completion, a closure — that Moya's API
/// does not require to be `Sendable`, carried through the pipeline.
///
/// Moya's protocols and closure types have no `Sendable` requirement, and code written for Moya
/// (a plugin counting requests in a `var`, a target carrying `[String: Any]`, a completion that
/// updates a main-actor view model) must compile here without a new diagnostic. So the library
/// takes the responsibility the compiler cannot check, as Moya did on Alamofire's queues:
///
/// - a request's target, endpoint closure and request closure are used by one stage of that
///   request at a time, each stage starting after the previous one ended;
/// - a completion and a progress block run on the callback queue the caller chose (the main
///   queue by default), the completion exactly once;
/// - plugins run where Moya runs them (`prepare`/`willSend` on the requesting thread,
///   `didReceive`/`process` on the callback queue); a plugin shared by requests on several
///   threads guards its own state, as it must with Moya.
///
/// - Note: `@unchecked Sendable` for the reasons above: the pipeline never uses a wrapped value
///   from two threads at once for one request, and hands it between threads only through
///   locks, dispatch queues or task creation, which order the accesses.
struct UserValue<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
