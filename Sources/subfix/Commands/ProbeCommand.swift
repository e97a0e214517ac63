import Foundation
import SubCore

/// `subfix probe FILE... [--json]`: the streams, subtitle track numbers and attachments of media files.
enum ProbeCommand {
    static let spec = CommandSpec(
        name: "probe", summary: "List the streams, subtitle tracks and attachments of media files.",
        positionals: [PositionalSpec(name: "FILE", minimum: 1, maximum: nil, help: "Media files (MKV, MP4, ...).")],
        options: [.flag(.json, "One JSON object per file on standard output.")],
        discussion: """
            Subtitle streams are numbered three ways: 'track' is the player's menu number (VLC, mpv sid; 0 is
            "Disable", 1 the first subtitle stream), 'sub' is ffmpeg's -map 0:s:N, 'stream' is ffmpeg's -map 0:N.
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ io: CommandIO) throws -> ExitStatus {
        var status = ExitStatus.success
        for (position, path) in arguments.positionals.enumerated() {
            let media: MediaFile
            do {
                media = try MediaFile(path: path)
            } catch let error as MediaError {
                io.error(error)
                status = .someFailed
                continue
            }
            if arguments.has(.json) {
                io.printJSON(json(media))
            } else {
                if position > 0 { io.print("") }
                table(media).forEach(io.printLine)
            }
        }
        return status
    }

    /// The `--json` object for one file.
    static func json(_ media: MediaFile) -> JSON {
        .typed(
            "file",
            [
                ("file", .string(media.path)),
                ("format", .string(media.formatName)),
                ("duration", media.duration.map(JSON.double) ?? .null),
                (
                    "streams",
                    .array(
                        media.streams.map { stream in
                            .object([
                                ("stream", .int(stream.index)),
                                ("kind", .string(stream.kind.rawValue)),
                                ("codec", .string(stream.codec)),
                                ("text", stream.subtitleEncoding.map { .bool($0 == .text) } ?? .null),
                                ("language", .optional(stream.language)),
                                ("title", .optional(stream.title)),
                                ("default", .bool(stream.isDefault)),
                                ("forced", .bool(stream.isForced)),
                                ("hearingImpaired", .bool(stream.isHearingImpaired)),
                                ("subtitleIndex", .optional(stream.subtitleIndex)),
                                ("track", .optional(stream.playerIndex)),
                            ])
                        })
                ),
                (
                    "attachments",
                    .array(
                        media.attachments.map { attachment in
                            .object([
                                ("stream", .int(attachment.index)),
                                ("filename", .optional(attachment.fileName)),
                                ("mimetype", .optional(attachment.mimeType)),
                                ("size", .int(attachment.size)),
                            ])
                        })
                ),
            ])
    }

    /// The readable table for one file.
    static func table(_ media: MediaFile) -> [String] {
        let duration = media.duration.map(MediaTime.format) ?? "unknown duration"
        var rows: [[String]] = [["stream", "kind", "codec", "type", "lang", "flags", "sub", "track", "title"]]
        for stream in media.streams {
            let flags = [
                stream.isDefault ? "default" : nil, stream.isForced ? "forced" : nil,
                stream.isHearingImpaired ? "sdh" : nil,
            ].compactMap { $0 }
            rows.append([
                String(stream.index), stream.kind.rawValue, stream.codec, stream.subtitleEncoding?.rawValue ?? "",
                stream.language ?? "", flags.joined(separator: ","),
                stream.subtitleIndex.map { "0:s:\($0)" } ?? "", stream.playerIndex.map(String.init) ?? "",
                stream.title ?? "",
            ])
        }
        var lines = ["\(media.path): \(media.formatName), \(duration)"]
        lines += aligned(rows).map { "  " + $0 }
        if !media.attachments.isEmpty {
            lines.append("  attachments:")
            var attachmentRows: [[String]] = []
            for attachment in media.attachments {
                attachmentRows.append([
                    String(attachment.index), attachment.fileName ?? "(no name)", attachment.mimeType ?? "",
                    "\(attachment.size) bytes",
                ])
            }
            lines += aligned(attachmentRows).map { "    " + $0 }
        }
        return lines
    }

    /// Pads every column but the last to its widest cell.
    static func aligned(_ rows: [[String]]) -> [String] {
        guard let columns = rows.map(\.count).max() else { return [] }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                if column == row.count - 1 {
                    line += cell
                } else {
                    line += cell + String(repeating: " ", count: widths[column] - cell.count + 2)
                }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
