import Moya

extension Recorder {
    /// What a recorder does with the network and with its fixture files.
    public enum Mode: Sendable, Equatable {
        /// Sends every request over the network and writes its fixture, replacing any older one.
        case record

        /// Never touches the network: answers every request from its fixture, and fails with a
        /// `MoyaError` naming the missing file when there is none.
        case replay

        /// Answers from the fixtures that exist; sends the other requests over the network and
        /// records them. Existing fixtures are never rewritten.
        case recordMissing
    }
}
