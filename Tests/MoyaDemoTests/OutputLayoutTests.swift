import Testing

@testable import MoyaDemoKit

@Suite struct OutputLayoutTests {
    @Test func wrapBreaksAtSpacesWithinTheWidth() {
        let lines = TextLayout.wrap("one two three four five", width: 9)

        #expect(lines == ["one two", "three", "four five"])
    }

    @Test func wrapSplitsAWordLongerThanALine() {
        let lines = TextLayout.wrap("abcdefghij xy", width: 4)

        #expect(lines == ["abcd", "efgh", "ij", "xy"])
    }

    @Test func progressBarFitsInEightyColumnsWithItsIndent() {
        let line = "   " + ProgressBar.render(fraction: 1, completed: 512 << 20, total: 512 << 20)

        #expect(line.count <= 80)
        #expect(line == "   [##############################] 100%  512.0 of 512.0 MB")
    }

    @Test func progressBarPrintsOnlyQuarterMilestonesWhenNotOnATerminal() {
        let captured = CapturedOutput()
        let bar = ProgressBar(output: captured.output)

        for completed in stride(from: Int64(0), through: 100, by: 5) {
            bar.update(completed: completed, total: 100)
        }
        bar.finish()

        #expect(captured.contents.split(separator: "\n").map { $0.contains("%") } == [true, true, true, true])
        #expect(!captured.contents.contains("\r"))
    }
}
