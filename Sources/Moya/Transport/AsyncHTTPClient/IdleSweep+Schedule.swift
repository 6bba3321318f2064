import NIOCore

extension IdleSweep {
    /// The sweep's bookkeeping, apart from any timer, lock or event loop so that it can be tested
    /// alone: the checks the watches asked for, and when the one timer must fire.
    ///
    /// The timer is set for the earliest check. A check added later than that does not move it;
    /// one added earlier sets a new timer, whose generation makes the older one, should it still
    /// fire, do nothing. A check removed leaves the timer as it is: it fires, finds nothing due,
    /// and is set again for the earliest check left, or not at all when none is left. A request
    /// that ends before its idle timeout (nearly every one) so costs an insert and a removal in a
    /// dictionary, and no timer of its own.
    struct Schedule<Target> {
        private var checks: [UInt64: (due: NIODeadline, target: Target)] = [:]
        private var lastID: UInt64 = 0
        /// When the timer set last fires, and its generation; `nil` when none is set.
        private(set) var timer: (due: NIODeadline, generation: UInt64)?
        private var generations: UInt64 = 0

        init() {}

        /// How many checks wait.
        var count: Int { checks.count }

        /// A timer to set, to fire at `due`, and its generation, for `fire(at:generation:)`.
        struct Arm: Equatable {
            let due: NIODeadline
            let generation: UInt64
        }

        /// Adds a check of `target` at `due`: its ticket, and the timer to set when it is now the
        /// earliest.
        mutating func add(_ target: Target, due: NIODeadline) -> (ticket: Ticket, arm: Arm?) {
            lastID &+= 1
            checks[lastID] = (due, target)
            let ticket = Ticket(id: lastID)
            if let timer, timer.due <= due {
                return (ticket, nil)
            }
            return (ticket, arming(at: due))
        }

        /// Removes the check `ticket` stands for, if it has not fired.
        mutating func remove(_ ticket: Ticket) {
            checks[ticket.id] = nil
        }

        /// The timer of `generation` fired at `now`: the targets whose check is due, taken out,
        /// and the timer to set for the earliest check left. A timer replaced by a newer one
        /// does nothing.
        mutating func fire(at now: NIODeadline, generation: UInt64) -> (due: [Target], arm: Arm?) {
            guard timer?.generation == generation else { return ([], nil) }
            timer = nil
            var due: [Target] = []
            var dueIDs: [UInt64] = []
            var earliest: NIODeadline?
            for (id, check) in checks {
                if check.due <= now {
                    due.append(check.target)
                    dueIDs.append(id)
                } else if earliest.map({ check.due < $0 }) ?? true {
                    earliest = check.due
                }
            }
            for id in dueIDs {
                checks[id] = nil
            }
            return (due, earliest.map { arming(at: $0) })
        }

        private mutating func arming(at due: NIODeadline) -> Arm {
            generations &+= 1
            timer = (due, generations)
            return Arm(due: due, generation: generations)
        }
    }
}

extension IdleSweep.Schedule: Sendable where Target: Sendable {}
