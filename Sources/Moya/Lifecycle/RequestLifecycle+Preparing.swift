import Foundation
import NIOCore

extension RequestLifecycle {
    // MARK: Preparing and announcing: the stages before the first attempt

    /// Runs the plugins' `prepare` in order (in a task when one is asynchronous), then checks
    /// the prepared request's headers.
    func prepare(_ request: URLRequest, step: Int) {
        startObserving(request)
        guard context.hasAsyncPlugins else {
            // The target is passed where it lies, not copied out of its existential box first.
            let prepared = withRequestContext {
                context.plugins.reduce(request) { $1.prepare($0, target: context.target) }
            }
            perform(withMachine { $0.prepared(Self.checkingHeaders(prepared), step: step) })
            return
        }
        let plugins = UserValue(context.plugins)
        let handedTarget = UserValue(context.target)
        startWork(step: step) {
            do {
                var prepared = request
                for plugin in plugins.value {
                    if let plugin = plugin as? AsyncPluginType {
                        prepared = try await plugin.prepare(prepared, target: handedTarget.value)
                    } else {
                        prepared = plugin.prepare(prepared, target: handedTarget.value)
                    }
                }
                let checked = Self.checkingHeaders(prepared)
                return { $0.prepared(checked, step: step) }
            } catch {
                let failure = MoyaError.wrapping(error)
                return { $0.prepared(.failure(failure), step: step) }
            }
        }
    }

    /// Runs the plugins' `willSend`, then starts the attempts with the interceptor (answering a
    /// `401` with a credential a plugin attached) and the whole-request deadline, fixed now.
    func announce(_ request: URLRequest, step: Int) {
        // Without plugins, nobody could see the request or attach a credential to it.
        var credential: URLCredential?
        if !context.plugins.isEmpty {
            let requestType = MoyaRequest(request: request, sessionHeaders: context.sessionPolicy.defaultHeaders)
            withRequestContext {
                for plugin in context.plugins {
                    plugin.willSend(requestType, target: context.target)
                }
            }
            credential = requestType.credential
        }
        let interceptor = ChallengeInterceptor.combining(context.interceptor, credential: credential)
        let deadline = context.sessionPolicy.requestTimeout.map { NIODeadline.now() + $0 }
        perform(withMachine { $0.announced(interceptor: interceptor, deadline: deadline, step: step) })
    }

    /// A request whose headers could not be sent fails before anything is.
    static func checkingHeaders(_ request: URLRequest) -> Result<URLRequest, MoyaError> {
        if let problem = HeaderValidation.problem(in: request) {
            return .failure(.underlying(problem, nil))
        }
        return .success(request)
    }

    /// A target's own timeout (`RequestPolicies`) replaces URLRequest's default one only, so
    /// that a `requestClosure` that set a timeout keeps it. A stream adds its headers.
    static func applying(
        _ policies: RequestPolicies?,
        _ streaming: Streaming?,
        to request: URLRequest
    ) -> URLRequest {
        var request = request
        if let timeout = policies?.timeoutInterval, request.timeoutInterval == URLRequest.defaultTimeoutInterval {
            request.timeoutInterval = timeout
        }
        for (name, value) in streaming?.addedHeaders ?? [:] where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        for (name, value) in streaming?.replacedHeaders ?? [:] {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }
}
