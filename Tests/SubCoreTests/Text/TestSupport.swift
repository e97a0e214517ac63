import Foundation

/// The checkout's `Samples/` folder.
let samplesFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Samples")

/// The bytes of a sample file.
func sampleBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: samplesFolder.appendingPathComponent(name)))
}

/// Every text sample (ASS, SSA, SRT, WebVTT) in `Samples/`.
let textSampleNames: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: samplesFolder.path)) ?? [])
    .filter { ["ass", "ssa", "srt", "vtt"].contains(($0 as NSString).pathExtension.lowercased()) }
    .sorted()

/// The UTF-8 bytes of `text`.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
