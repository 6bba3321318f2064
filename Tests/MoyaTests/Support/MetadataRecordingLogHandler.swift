import Logging

/// A swift-log handler that keeps every record's metadata: the logger's own, overridden by the
/// record's.
struct MetadataRecordingLogHandler: LogHandler {
    let records: Synchronized<[Logger.Metadata]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, record in record }
        records.update { $0.append(merged) }
    }
}
