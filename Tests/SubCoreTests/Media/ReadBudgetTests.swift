import Foundation
import SubCore
import Testing

@testable import SubCore

/// `ReadBudget`: the rate syntax, the schedule that makes reads wait (checked on given instants, not timed), and
/// media read through a metered input giving the same results as read directly.
@Suite struct ReadBudgetTests {
    @Test(arguments: [
        ("50M", Int64(50_000_000)), ("50MB/s", 50_000_000), ("1.5G", 1_500_000_000), ("512Ki", 524_288),
        ("2Mi", 2_097_152), ("800k", 800_000), ("1000", 1000), (" 1M ", 1_000_000), ("10mb", 10_000_000),
    ])
    func ratesParse(text: String, rate: Int64) {
        #expect(ReadBudget.parseRate(text) == rate)
    }

    @Test(arguments: ["", "0", "-5M", "M", "fast", "1e9", "5MM", "0.5", "nan", "inf", "１M", "99999999999G"])
    func badRatesAreRefused(text: String) {
        #expect(ReadBudget.parseRate(text) == nil)
    }

    /// Each read waits until the run is back at the rate; a run idle for a minute saves up nothing.
    @Test func scheduleWaitsOnlyForWhatIsAheadOfTheRate() {
        let start = ContinuousClock.now
        let rate: Int64 = 1_000_000
        var (schedule, wait) = ReadBudget.schedule(after: nil, now: start, bytes: 250_000, rate: rate)
        #expect(wait == .milliseconds(250))
        (schedule, wait) = ReadBudget.schedule(after: schedule, now: start, bytes: 1_000_000, rate: rate)
        #expect(wait == .milliseconds(1250))
        (schedule, wait) = ReadBudget.schedule(after: schedule, now: start + .seconds(2), bytes: 1_500_000, rate: rate)
        #expect(wait == .milliseconds(1500))
        let idle = start + .seconds(60)
        (schedule, wait) = ReadBudget.schedule(after: schedule, now: idle, bytes: 250_000, rate: rate)
        #expect(wait == .milliseconds(250))
        (_, wait) = ReadBudget.schedule(after: schedule, now: idle, bytes: 1_000_000, rate: rate)
        #expect(wait == .milliseconds(1250))
    }

    /// A fast budget (no wait at these sizes): the tracks are byte for byte those read directly, and every byte
    /// of the file was counted.
    @Test(arguments: ["tram.mkv", "tram.mp4"])
    func meteredReadsGiveTheSameTracks(sample: String) throws {
        let path = MediaFixtures.samples.appendingPathComponent(sample).path
        let direct = try MediaFile(path: path)
        let expected = try SubtitleExtractor(file: direct).extract(tracks: direct.subtitleStreams, format: .srt)
        let budget = ReadBudget(bytesPerSecond: 1_000_000_000)
        let metered = try MediaFile(path: path, readBudget: budget)
        let result = try SubtitleExtractor(file: metered).extract(tracks: metered.subtitleStreams, format: .srt)
        #expect(result.tracks.map(\.data) == expected.tracks.map(\.data))
        #expect(!result.tracks.isEmpty)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(budget.bytesRead >= Int64(size) / 2)
        // Waits never add up to more than the bytes cost at the rate (about 0.1 ms here).
        #expect(budget.waited <= .nanoseconds(budget.bytesRead + 1000))
    }

    /// A truncated file read through the metered input is reported as read directly; a missing one names itself.
    @Test func meteredDamageAndMissingFilesAreReportedAsDirect() throws {
        let directory = try MediaFixtures.temporaryDirectory()
        let half = try MediaFixtures.truncated(MediaFixtures.mkv, fraction: 0.5, as: "half.mkv", in: directory)
        let direct = try MediaFile(path: half)
        let expected = try SubtitleExtractor(file: direct).extract(tracks: direct.subtitleStreams, format: .srt)
        let metered = try MediaFile(path: half, readBudget: ReadBudget(bytesPerSecond: nil))
        let result = try SubtitleExtractor(file: metered).extract(tracks: metered.subtitleStreams, format: .srt)
        #expect(result.interruption == expected.interruption)
        #expect(result.interruption != nil)
        #expect(result.tracks.map(\.data) == expected.tracks.map(\.data))

        let missing = directory.appendingPathComponent("gone.mkv").path
        let error = try #require(throws: MediaError.self) {
            try MediaFile(path: missing, readBudget: ReadBudget(bytesPerSecond: 1000))
        }
        #expect(error.description.contains("No such file or directory"))
        let garbage = directory.appendingPathComponent("garbage.mkv")
        try Data(repeating: 0x5A, count: 4096).write(to: garbage)
        #expect(throws: MediaError.self) {
            try MediaFile(path: garbage.path, readBudget: ReadBudget(bytesPerSecond: nil))
        }
    }
}
