import Foundation

extension BitmapSubtitleSample {
    /// `events` as a PGS (`hdmv_pgs_subtitle`) elementary stream, the `.sup` files Blu-ray rips carry and
    /// libavformat's `sup` demuxer reads. Written by hand from the public segment format (ffmpeg cannot encode PGS):
    /// per event one display set (presentation composition, window, palette, object, end) at its start and an
    /// empty one at its end.
    package static func pgsStream(_ events: [BitmapEvent], width: Int, height: Int) -> Data {
        // An empty display set at 0 s, as a disc's stream starts with one: the stream then starts at 0, and the
        // demuxer's start-time shift (which ffmpeg applies too) leaves the events' times alone.
        var output = segment(0x16, be16(width) + be16(height) + [0x10, 0xFF, 0xFF, 0x80, 0, 0, 0], pts: 0)
        output += segment(0x17, [0], pts: 0)
        output += segment(0x80, [], pts: 0)
        for (number, event) in events.enumerated() {
            let start = UInt32(max(0, event.start) * 90)
            let end = UInt32(max(0, event.end) * 90)
            let objects = Array(event.bitmaps.prefix(2).enumerated())
            // Presentation composition: the frame, an epoch start, the objects and where they go.
            var composition =
                be16(width) + be16(height) + [0x10] + be16(number * 2) + [0x80, 0, 0, UInt8(objects.count)]
            for (id, bitmap) in objects {
                composition += be16(id) + [UInt8(id), 0] + be16(bitmap.x) + be16(bitmap.y)
            }
            output += segment(0x16, composition, pts: start)
            var windows: [UInt8] = [UInt8(objects.count)]
            for (id, bitmap) in objects {
                windows += [UInt8(id)] + be16(bitmap.x) + be16(bitmap.y) + be16(bitmap.width) + be16(bitmap.height)
            }
            output += segment(0x17, windows, pts: start)
            // The palette in BT.709 limited-range YCrCb (what ffmpeg's decoder assumes above 600 lines; the
            // greys used here are the same either way).
            var palette: [UInt8] = [0, 0]
            for (index, colour) in (objects.first?.element.palette ?? []).prefix(256).enumerated() {
                let alpha = UInt8(colour >> 24)
                let grey = Int((colour >> 8) & 0xFF)
                palette += [UInt8(index), UInt8(16 + grey * 219 / 255), 128, 128, alpha]
            }
            output += segment(0x14, palette, pts: start)
            for (id, bitmap) in objects {
                output += objectSegments(id: id, bitmap, pts: start)
            }
            output += segment(0x80, [], pts: start)
            // The clear: a normal composition with no objects.
            output += segment(
                0x16, be16(width) + be16(height) + [0x10] + be16(number * 2 + 1) + [0, 0, 0, 0], pts: end)
            output += segment(0x17, windows, pts: end)
            output += segment(0x80, [], pts: end)
        }
        return output
    }

    /// One object definition, split into segments of at most 65,535 bytes (first and last flags 0x80 and 0x40).
    private static func objectSegments(id: Int, _ bitmap: SubtitleBitmap, pts: UInt32) -> Data {
        let data = runLengths(bitmap)
        let total = data.count + 4
        let header = be16(bitmap.width) + be16(bitmap.height)
        var body = [UInt8(total >> 16 & 0xFF), UInt8(total >> 8 & 0xFF), UInt8(total & 0xFF)] + header + data
        var output = Data()
        var first = true
        while !body.isEmpty || first {
            let take = min(body.count, 65_535 - 4)
            let chunk = Array(body.prefix(take))
            body.removeFirst(take)
            let flags: UInt8 = (first ? 0x80 : 0) | (body.isEmpty ? 0x40 : 0)
            output += segment(0x15, be16(id) + [0, flags] + chunk, pts: pts)
            first = false
        }
        return output
    }

    /// PGS run-length coding of the palette indexes, line by line (each line ends with `00 00`).
    static func runLengths(_ bitmap: SubtitleBitmap) -> [UInt8] {
        var output: [UInt8] = []
        for y in 0..<bitmap.height {
            var x = 0
            while x < bitmap.width {
                let colour = bitmap.indexes[y * bitmap.width + x]
                var length = 1
                while x + length < bitmap.width, length < 16_383,
                    bitmap.indexes[y * bitmap.width + x + length] == colour
                {
                    length += 1
                }
                switch (colour, length) {
                case (0, ..<64): output += [0, UInt8(length)]
                case (0, _): output += [0, 0x40 | UInt8(length >> 8), UInt8(length & 0xFF)]
                case (_, 1): output += [colour]
                case (_, 2): output += [colour, colour]
                case (_, ..<64): output += [0, 0x80 | UInt8(length), colour]
                default: output += [0, 0xC0 | UInt8(length >> 8), UInt8(length & 0xFF), colour]
                }
                x += length
            }
            output += [0, 0]
        }
        return output
    }

    private static func segment(_ type: UInt8, _ payload: [UInt8], pts: UInt32) -> Data {
        var data = Data("PG".utf8)
        data += withUnsafeBytes(of: pts.bigEndian, Array.init)
        data += [0, 0, 0, 0, type] + be16(payload.count)
        data += payload
        return data
    }

    private static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}
