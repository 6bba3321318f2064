import Foundation

/// Shows a transfer's progress: a bar redrawn in place on a terminal, a few milestone lines
/// elsewhere (so that CI logs do not fill with carriage returns).
final class ProgressBar {
    private let output: DemoOutput
    private let indent: String
    private var lastPercent = -1
    private var lastMilestone = 0

    /// The bar's width in characters between the brackets.
    static let barWidth = 30

    init(output: DemoOutput, indent: String = "   ") {
        self.output = output
        self.indent = indent
    }

    /// Reports `completed` of `total` bytes.
    func update(completed: Int64, total: Int64) {
        let fraction = total > 0 ? min(max(Double(completed) / Double(total), 0), 1) : 0
        let percent = Int(fraction * 100)
        if output.isTerminal {
            // Redrawing only when the percentage changes keeps a fast transfer from
            // writing thousands of identical lines.
            guard percent != lastPercent else { return }
            lastPercent = percent
            output.write("\r" + indent + Self.render(fraction: fraction, completed: completed, total: total))
        } else {
            let milestone = percent / 25 * 25
            guard milestone > lastMilestone else { return }
            lastMilestone = milestone
            output.line(indent + Self.render(fraction: fraction, completed: completed, total: total))
        }
    }

    /// Ends the bar's line on a terminal.
    func finish() {
        if output.isTerminal, lastPercent >= 0 {
            output.line()
        }
    }

    /// `[#############.................]  45%   14.4 of 32.0 MB`.
    static func render(fraction: Double, completed: Int64, total: Int64) -> String {
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled)
        let percent = String(Int(fraction * 100)).leftPadded(to: 3)
        return "[\(bar)] \(percent)%  \(megabytes(completed)) of \(megabytes(total)) MB"
    }

    private static func megabytes(_ bytes: Int64) -> String {
        String(format: "%5.1f", Double(bytes) / 1_048_576)
    }
}

extension String {
    /// The string with spaces before it, `width` characters long at least.
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
