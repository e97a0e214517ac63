import Foundation

/// Frames on their way to disk. PNGs from a frame-threaded encoder arrive in order but a few frames late; a
/// frame libass reported unchanged repeats the previous PNG without encoding it again.
struct RenderOutputQueue {
    private var pending: [(path: String, fresh: Bool)] = []
    private var last: Data?
    /// Files written so far (removed by the caller if the run fails).
    private(set) var written: [String] = []

    /// Expects a PNG for `path`: a new one from the encoder (`fresh`), or the previous one again.
    mutating func add(path: String, fresh: Bool) throws {
        pending.append((path, fresh))
        try writeRepeats()
    }

    /// Writes newly encoded PNGs to their paths, in order, with the repeats that follow them.
    mutating func deliver(_ pngs: [Data]) throws {
        for png in pngs {
            try writeRepeats()
            guard let next = pending.first, next.fresh else { continue }
            pending.removeFirst()
            try RenderFileWriter.write(png, to: next.path)
            written.append(next.path)
            last = png
            try writeRepeats()
        }
    }

    /// Whether every expected PNG has been written.
    var isEmpty: Bool { pending.isEmpty }

    private mutating func writeRepeats() throws {
        while let next = pending.first, !next.fresh, let png = last {
            pending.removeFirst()
            try RenderFileWriter.write(png, to: next.path)
            written.append(next.path)
        }
    }
}
