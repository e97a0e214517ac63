import Foundation

/// The fuzzer used where libFuzzer is not linked in (and by CI's smoke run): seeds from the corpus folders, then
/// mutated inputs from a fixed-seed generator (bit flips, interesting bytes, the markup bytes the parsers
/// branch on, inserted, deleted and repeated runs, splices of two seeds, truncations), for a given time. The
/// same seed and corpus give the same inputs in the same order, so a crash reruns with the same arguments.
struct MutationLoop {
    /// SplitMix64: small, fast, and the same on every machine.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
    }

    /// Bytes the parsers and the rewriter branch on, and a few that break encodings.
    static let interesting: [[UInt8]] = [
        [0x00], [0xFF], [0xFE], [0xEF, 0xBB, 0xBF], [0x0A], [0x0D, 0x0A], [0x0D], [0x7B], [0x7D], [0x5C],
        [0x2C], [0x3A], [0x2E], [0x3C], [0x3E], [0x22], [0x27], [0x28], [0x29], [0x40], [0x3B], [0x1B],
        Array("\\fn".utf8), Array("\\t(".utf8), Array("\\p1".utf8), Array("\\r".utf8), Array(" --> ".utf8),
        Array("<font face=".utf8), Array("Style: ".utf8), Array("Dialogue: ".utf8), Array("[V4+ Styles]".utf8),
        Array("Format: ".utf8), Array("WEBVTT".utf8), Array("STYLE\n".utf8), Array("font-family:".utf8),
        Array("00:00:01,000".utf8), Array("0:00:01.00".utf8), [0xE4, 0xBD, 0xA0], [0xC4, 0xE3], [0xA7],
        Array("\u{2028}".utf8), Array("/*".utf8), Array("*/".utf8),
    ]

    var generator: Generator
    let seeds: [[UInt8]]

    /// One mutated input: a seed, changed one to eight times.
    mutating func nextInput() -> [UInt8] {
        var input = seeds[generator.below(seeds.count)]
        for _ in 0...generator.below(8) { mutate(&input) }
        if input.count > 1 << 16 { input.removeSubrange((1 << 16)...) }
        return input
    }

    private mutating func mutate(_ input: inout [UInt8]) {
        let position = generator.below(input.count + 1)
        switch generator.below(9) {
        case 0 where !input.isEmpty:
            let index = min(position, input.count - 1)
            input[index] ^= UInt8(1 << generator.below(8))
        case 1 where !input.isEmpty:
            input[min(position, input.count - 1)] = UInt8(truncatingIfNeeded: generator.next())
        case 2:
            input.insert(contentsOf: Self.interesting[generator.below(Self.interesting.count)], at: position)
        case 3 where !input.isEmpty:
            let end = min(input.count, position + 1 + generator.below(64))
            input.removeSubrange(min(position, input.count - 1)..<end)
        case 4 where !input.isEmpty:
            let start = min(position, input.count - 1)
            let end = min(input.count, start + 1 + generator.below(128))
            let run = Array(input[start..<end])
            for _ in 0...generator.below(4) { input.insert(contentsOf: run, at: start) }
        case 5:
            let other = seeds[generator.below(seeds.count)]
            let cut = generator.below(other.count + 1)
            input = Array(input.prefix(position)) + other[cut...]
        case 6:
            input.removeSubrange(position...)
        case 7:
            let count = 1 + generator.below(16)
            input.insert(contentsOf: (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }, at: position)
        default:
            input.insert(contentsOf: Self.interesting[generator.below(Self.interesting.count)], at: position)
        }
    }
}
