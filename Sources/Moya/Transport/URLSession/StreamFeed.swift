import Foundation

/// The order in which a streamed body's chunks, and then its ending, go from URLSession to the
/// reader's `ChunkChannel`, apart from both so that the rules can be tested alone.
///
/// URLSession's delegate cannot hold a transfer back: on Linux, suspending a data task and
/// resuming it sends the request again from the start. So while the channel is full the chunks
/// that keep arriving wait here, in order, and the ending waits behind them; the reader still
/// receives every chunk once and in order, and the transfer's ending only after the last one.
struct StreamFeed<Ending> {
    /// What the caller does next.
    enum Action {
        case none
        /// Hand the chunk to the channel, then report whether it took it (`sent(accepted:)`).
        case send(Data)
        /// Every chunk was handed over: end the channel.
        case finish(Ending)
    }

    private var pending: [Data] = []
    private var head = 0
    /// The channel is full and will say when it has room.
    private var waiting = false
    private var ending: Ending?
    private var finished = false

    /// How many chunks wait for the channel.
    var backlog: Int { pending.count - head }

    /// A chunk arrived.
    mutating func received(_ chunk: Data) -> Action {
        guard !finished, ending == nil else { return .none }
        if waiting || backlog > 0 {
            pending.append(chunk)
            return .none
        }
        return .send(chunk)
    }

    /// The channel took the chunk last handed to it (`accepted`), or is full and calls back
    /// once it has room.
    mutating func sent(accepted: Bool) -> Action {
        guard accepted else {
            waiting = true
            return .none
        }
        return next()
    }

    /// The channel has room again.
    mutating func resumed() -> Action {
        waiting = false
        return next()
    }

    /// The transfer ended so: after the chunks still waiting.
    mutating func ended(_ ending: Ending) -> Action {
        guard !finished, self.ending == nil else { return .none }
        self.ending = ending
        return waiting ? .none : next()
    }

    private mutating func next() -> Action {
        guard !waiting else { return .none }
        if head < pending.count {
            let chunk = pending[head]
            head += 1
            if head == pending.count {
                pending.removeAll(keepingCapacity: true)
                head = 0
            }
            return .send(chunk)
        }
        if let ending, !finished {
            finished = true
            return .finish(ending)
        }
        return .none
    }
}
