import Foundation

/// Writes a media file's attachments (fonts) into a folder under safe names (`SafeFileName`), never replacing a
/// file: a name already taken gets a numbered suffix (`font-1.ttf`).
///
///     let media = try MediaFile(path: "movie.mkv")
///     for written in try AttachmentWriter.write(media.attachments, of: media, to: URL(fileURLWithPath: "fonts")) {
///         print(written.url.path)
///     }
public enum AttachmentWriter {
    /// One attachment written to disk.
    public struct Written: Sendable, Equatable {
        /// The attachment as described by the media file.
        public var attachment: MediaAttachment
        /// Where it was written.
        public var url: URL
    }

    /// The file name an attachment gets before collisions are resolved.
    static func safeName(for attachment: MediaAttachment) -> String {
        SafeFileName.make(
            attachment.fileName, fallback: "attachment-\(attachment.index)" + fallbackExtension(attachment))
    }

    /// Writes `attachments` of `media` into `directory` (created if missing). Each file is written to a temporary
    /// file first and linked into place, so a failure leaves no partial file.
    public static func write(
        _ attachments: [MediaAttachment], of media: MediaFile, to directory: URL
    ) throws -> [Written] {
        try createDirectory(directory)
        var written: [Written] = []
        for attachment in attachments {
            let data = try media.attachmentData(stream: attachment.index)
            let name = safeName(for: attachment)
            let destination = directory.appendingPathComponent(name).path
            let path: String
            do {
                let file = try AtomicFile(destination: destination, mode: FileCreationMode.newFile)
                file.write([UInt8](data)[...])
                path = try file.commitWithoutReplacing { number in
                    directory.appendingPathComponent(SafeFileName.numbered(name, number)).path
                }
            } catch {
                throw MediaError.write(file: destination, cause: error.cause)
            }
            written.append(Written(attachment: attachment, url: URL(fileURLWithPath: path)))
        }
        return written
    }

    /// Creates `directory` and its parents, as a `MediaError.write` on failure.
    static func createDirectory(_ directory: URL) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw MediaError.write(file: directory.path, cause: "cannot create the folder")
        }
    }

    private static func fallbackExtension(_ attachment: MediaAttachment) -> String {
        switch attachment.mimeType?.lowercased() {
        case "application/x-truetype-font", "font/ttf", "application/x-font-ttf": return ".ttf"
        case "application/vnd.ms-opentype", "font/otf", "application/x-font-otf", "font/sfnt": return ".otf"
        case "font/collection": return ".ttc"
        default: return ".bin"
        }
    }
}
