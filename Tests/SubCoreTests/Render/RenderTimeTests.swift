import Testing

@testable import SubCore

@Suite struct RenderTimeTests {
    @Test(arguments: [
        ("00:00:01.000", 1000), ("1:02:03.5", 3_723_500), ("01:02", 62_000), ("01:02.25", 62_250), ("12.5", 12_500),
        ("0", 0), ("90", 90_000), ("125:00", 7_500_000), ("00:00:59.999", 59_999),
    ])
    func parsesTimes(text: String, milliseconds: Int) throws {
        #expect(try RenderTime.parse(text) == milliseconds)
    }

    @Test(arguments: [
        "", "abc", "1:2:3:4", "00:60", "00:61:00", "01:00:60", "-1", "1.2345", "1..2", "1:", ":30", "01:2",
        "１２", "1e3", " 1",
    ])
    func rejectsBadTimes(text: String) {
        #expect(throws: RenderError.badTime(text)) { try RenderTime.parse(text) }
        #expect(
            RenderError.badTime(text).description
                == "invalid time '\(text)' (expected HH:MM:SS.mmm, MM:SS or seconds)")
    }

    @Test func rejectsZeroDurations() throws {
        #expect(throws: RenderError.badDuration("0")) { try RenderTime.parseDuration("0") }
        #expect(
            RenderError.badDuration("0").description
                == "invalid duration '0' (expected a positive time such as 0.5, 00:10 or 00:00:02.500)")
        #expect(try RenderTime.parseDuration("0.04") == 40)
    }

    @Test func formatsTimes() {
        #expect(RenderTime.format(3_723_500) == "01:02:03.500")
        #expect(RenderTime.format(0) == "00:00:00.000")
        #expect(RenderTime.format(360_000_000) == "100:00:00.000")
    }
}
