import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A streamed response's body, handed to its reader through a `ChunkChannel` in the order
/// `StreamFeed` keeps; on the delegate queue, like the rest of what the transfer receives.
extension URLSessionTransfer {
    /// The head arrived: the reader gets it with a channel for the body, unless the caller
    /// cancelled (the task's end then reports the cancel). The reader leaving cancels the
    /// attempt, and so stops the task.
    func openStream(_ response: HTTPURLResponse, events: StreamEvents) {
        guard !isCancelled else { return }
        let cancellation = exchange.cancellation
        let channel = ChunkChannel { termination in
            if case .consumerLeft = termination {
                cancellation.cancel()
            }
            events.ended(termination)
        }
        received.channel = channel
        let head = makeResponse(response, body: Data(), fileURL: nil)
        events.head(.success(OpenedStream(head: head, chunks: ResponseChunks(channel: channel))))
    }

    /// Carries out what the feed says, until it waits for the channel or has nothing to do.
    func feed(_ action: StreamFeed<ChunkChannel.Machine.Ending>.Action) {
        guard let channel = received.channel else { return }
        var action = action
        while true {
            switch action {
            case .none:
                return
            case .finish(let ending):
                channel.finish(ending)
                return
            case .send(let chunk):
                let accepted = channel.send(chunk) { [weak self] in
                    // The channel calls back from the reader's thread: back onto the delegate queue.
                    guard let self else { return }
                    self.settings.delegateQueue.addOperation {
                        self.feed(self.received.feed.resumed())
                    }
                }
                action = received.feed.sent(accepted: accepted)
            }
        }
    }
}
