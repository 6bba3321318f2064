extension RequestLifecycle.StateMachine {
    /// A request's subscribers, in the order they joined.
    ///
    /// Almost every request has exactly one: the caller that started it. `trackInflights` joins
    /// more callers to a request in flight. The first is kept inline and the others in an array,
    /// which stays empty, and so costs no allocation, for a request with one subscriber.
    struct Subscribers: Sequence {
        /// `nil` only when there is no subscriber at all.
        private var head: Subscriber?
        private var others: [Subscriber] = []

        init() {}

        init(_ subscriber: Subscriber) {
            head = subscriber
        }

        var isEmpty: Bool { head == nil }

        var count: Int { head == nil ? 0 : 1 + others.count }

        /// The subscriber that joined first: the one whose delivery plugins hear on.
        var first: Subscriber? { head }

        /// Whether any of them gave a progress block.
        var listenForProgress: Bool {
            contains { $0.progress != nil }
        }

        mutating func append(_ subscriber: Subscriber) {
            if head == nil {
                head = subscriber
            } else {
                others.append(subscriber)
            }
        }

        /// Removes and returns the subscriber with this identifier, if it is here.
        mutating func remove(id: Int) -> Subscriber? {
            if let head, head.id == id {
                self.head = others.isEmpty ? nil : others.removeFirst()
                return head
            }
            guard let index = others.firstIndex(where: { $0.id == id }) else { return nil }
            return others.remove(at: index)
        }

        func makeIterator() -> Iterator {
            Iterator(head: head, others: others.makeIterator())
        }

        struct Iterator: IteratorProtocol {
            fileprivate var head: Subscriber?
            fileprivate var others: IndexingIterator<[Subscriber]>

            mutating func next() -> Subscriber? {
                if let head {
                    self.head = nil
                    return head
                }
                return others.next()
            }
        }
    }
}
