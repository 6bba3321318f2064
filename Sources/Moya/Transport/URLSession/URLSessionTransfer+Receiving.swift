import Foundation
import NIOHTTP1

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the delegate hands the transfer, on the delegate queue (see `URLSessionTransfer`).
extension URLSessionTransfer {
    func received(_ response: URLResponse) {
        guard let response = response as? HTTPURLResponse else { return }
        received.response = response
        #if canImport(FoundationNetworking)
        correctCookieExpiry(of: response)
        #endif
        let length = response.expectedContentLength
        received.progress.receivedHead(contentLength: length >= 0 ? length : nil)
        if case .stream(let events) = listener {
            openStream(response, events: events)
        } else if destination != nil, (200..<300).contains(response.statusCode) {
            openFile()
        }
    }

    func received(_ data: Data) {
        progressReporter.deliver(received.progress.received(data.count))
        if received.channel != nil {
            feed(received.feed.received(data))
        } else if let file = received.file {
            do {
                try file.handle.write(contentsOf: data)
            } catch {
                failLocally(error)
            }
        } else if received.localError == nil {
            received.body.append(data)
        }
    }

    #if canImport(FoundationNetworking)
    /// URLSession on Linux stored the response's cookies before this, reading `Max-Age` as no
    /// expiry at all: a cookie a server expires with `Max-Age=0` (a logout) would be sent on.
    /// The storage is corrected here, on the delegate queue and before the response is handed
    /// on, so that neither the completion nor the next request sees the cookie.
    private func correctCookieExpiry(of response: HTTPURLResponse) {
        guard let storage = settings.cookieStorage, exchange.request.httpShouldHandleCookies, let url = response.url,
            let fields = response.value(forHTTPHeaderField: "Set-Cookie")
        else { return }
        // URLSession joins repeated fields with ", ", which Foundation's cookie parser splits.
        for change in SetCookieFields([fields], from: url).maxAgeCorrections {
            CookieJar.write(change, to: storage)
        }
    }
    #endif

    func sent(_ count: Int64) {
        progressReporter.deliver(received.progress.sent(Int(count)))
    }

    /// The request to follow a redirect with, as the session's redirect settings say; `nil`
    /// not to follow it.
    func redirect(from response: HTTPURLResponse, to request: URLRequest) -> URLRequest? {
        let previous = received.visited.last
        switch settings.redirects.decide(from: previous, to: request, visited: received.visited) {
        case .follow(var next):
            if let url = next.url {
                received.visited.append(url)
            }
            #if canImport(FoundationNetworking)
            URLSessionLinuxRedirects.complete(&next, after: response, of: exchange.request, settings: settings)
            #endif
            return next
        case .deliverRedirect:
            return nil
        case .refuse:
            // Not following ends the task with the redirect's response, reported as the error.
            interrupt(.tooManyRedirects, cancellingTask: false)
            return nil
        }
    }

    /// URLSession on Linux holds a complete `401` back to ask for credentials (see
    /// `URLSessionTaskRouter`): report it as received.
    func challengedAfterResponse() {
        interrupt(.deliverReceived)
    }

    /// A download's `2xx` body goes to a new file in the session's temporary directory, which
    /// the transport removes if the download does not complete: URLSession's own download
    /// tasks leave theirs behind when cancelled on Linux (checked).
    private func openFile() {
        do {
            let file = try TemporaryFile.create(in: settings.temporaryDirectory)
            received.file = (file.url, file.handle)
        } catch {
            failLocally(error)
        }
    }

    private func failLocally(_ error: Error) {
        received.localError = error
        closeFile()
        interrupt(.failedLocally)
    }

    /// Closes a download's file, and unless it is complete and wanted, removes it.
    func closeFile(keeping: Bool = false) {
        guard let file = received.file else { return }
        try? file.handle.close()
        if !keeping {
            try? FileManager.default.removeItem(at: file.url)
            received.file = nil
        }
    }

    // MARK: Reporting

    /// Reports the complete response: moved into place first for a download.
    func deliverResponse() {
        guard let httpResponse = received.response else {
            deliver(.failure(.underlying(TransferError.noResponseHead, nil)))
            return
        }
        let response = makeResponse(httpResponse, body: received.body, fileURL: nil)
        guard let destination, let file = received.file else {
            deliver(.success(response))
            return
        }
        received.file = nil
        // Moving may copy across volumes: off the delegate queue, which serves every request.
        DispatchQueue.global().async {
            do {
                let moved = try DownloadMover.move(file.url, response: httpResponse, destination: destination.value)
                self.deliver(.success(self.makeResponse(httpResponse, body: Data(), fileURL: moved)))
            } catch {
                try? FileManager.default.removeItem(at: file.url)
                self.deliver(.failure(.underlying(error, response)))
            }
        }
    }

    /// Hands `result` to whoever listens: the transfer's completion, or the stream's head or
    /// ending; then the transfer is over.
    func deliver(_ result: Result<Response, MoyaError>) {
        guard case .stream(let events) = listener else {
            end(with: result)
            return
        }
        if received.channel == nil {
            // The head was never handed over: the stream's one report is this failure.
            switch result {
            case .success:
                events.head(.failure(isCancelled ? .cancelled : .underlying(TransferError.noResponseHead, nil)))
            case .failure(let error):
                events.head(.failure(error))
            }
            end(with: nil)
            return
        }
        switch result {
        case .success:
            feed(received.feed.ended(.finished))
        case .failure(let error):
            feed(received.feed.ended(.failed(error)))
        }
        end(with: nil)
    }

    /// The response for `httpResponse`, for the request as the lifecycle sent it.
    func makeResponse(_ httpResponse: HTTPURLResponse, body: Data, fileURL: URL?) -> Response {
        var headers = HTTPHeaders()
        for (name, value) in httpResponse.allHeaderFields {
            if let name = name as? String, let value = value as? String {
                headers.add(name: name, value: value)
            }
        }
        let head = HTTPResponseHead(
            version: .http1_1,
            status: HTTPResponseStatus(statusCode: httpResponse.statusCode),
            headers: headers
        )
        let url = httpResponse.url ?? exchange.request.url ?? URL(fileURLWithPath: "/")
        return Response(head: head, url: url, data: body, request: exchange.request, fileURL: fileURL)
    }
}
