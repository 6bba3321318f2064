import Foundation

/// A plugin that also sees the body of streamed responses (`stream(_:)`,
/// `events(_:reconnect:)`), chunk by chunk: to record it, count it, or log it.
///
/// Its other hooks are `PluginType`'s: `willSend` when the stream starts, `didReceive` once
/// when it ends.
public protocol StreamPluginType: PluginType {
    /// Called with each chunk of a streamed response, in order, as its reader receives it, on
    /// the reader's task; `RequestContext.current` names the request.
    func didReceive(chunk: Data, target: TargetType)
}
