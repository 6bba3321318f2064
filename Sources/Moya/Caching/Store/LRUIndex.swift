/// Keys with their sizes in least-recently-used order, within a byte budget: the bookkeeping
/// both stores share. A doubly linked list threaded through a dictionary, so that every
/// operation is O(1) but eviction, which is O(evicted).
struct LRUIndex<Key: Hashable & Sendable>: Sendable {
    private struct Node: Sendable {
        var size: Int
        var older: Key?
        var newer: Key?
    }

    private var nodes: [Key: Node] = [:]
    private var oldest: Key?
    private var newest: Key?

    /// The budget, in bytes.
    let capacity: Int
    /// The sum of the sizes of the keys held.
    private(set) var totalSize = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { nodes.count }

    func contains(_ key: Key) -> Bool {
        nodes[key] != nil
    }

    /// The keys, least recently used first.
    var keysOldestFirst: [Key] {
        var keys: [Key] = []
        var current = oldest
        while let key = current {
            keys.append(key)
            current = nodes[key]?.newer
        }
        return keys
    }

    /// Marks `key` as just used.
    mutating func touch(_ key: Key) {
        // The newest already: nothing moves, and two lookups of the table are saved.
        guard newest != key, let size = nodes[key]?.size else { return }
        unlink(key)
        link(key, size: size)
    }

    /// Adds or resizes `key`, marked as just used, and returns the keys evicted to stay within
    /// budget (never `key` itself unless it alone exceeds the budget).
    mutating func insert(_ key: Key, size: Int) -> [Key] {
        if nodes[key] != nil {
            unlink(key)
        }
        link(key, size: max(0, size))
        var evicted: [Key] = []
        while totalSize > capacity, let victim = oldest {
            unlink(victim)
            evicted.append(victim)
        }
        return evicted
    }

    /// Forgets `key`; whether it was there.
    @discardableResult
    mutating func remove(_ key: Key) -> Bool {
        guard nodes[key] != nil else { return false }
        unlink(key)
        return true
    }

    mutating func removeAll() {
        nodes = [:]
        oldest = nil
        newest = nil
        totalSize = 0
    }

    private mutating func link(_ key: Key, size: Int) {
        nodes[key] = Node(size: size, older: newest, newer: nil)
        if let previous = newest {
            nodes[previous]?.newer = key
        } else {
            oldest = key
        }
        newest = key
        totalSize += size
    }

    private mutating func unlink(_ key: Key) {
        guard let node = nodes.removeValue(forKey: key) else { return }
        if let older = node.older {
            nodes[older]?.newer = node.newer
        } else {
            oldest = node.newer
        }
        if let newer = node.newer {
            nodes[newer]?.older = node.older
        } else {
            newest = node.older
        }
        totalSize -= node.size
    }
}
