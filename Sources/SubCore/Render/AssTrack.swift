internal import CLibass
import Foundation

/// A style of a loaded track, copied out of libass.
public struct AssStyle: Sendable, Hashable {
    /// The style's name (`Default`).
    public var name: String
    /// The font it asks for, as written (`微软雅黑`, `@SimHei`).
    public var fontName: String
    /// Whether the style is bold.
    public var isBold: Bool
    /// Whether the style is italic.
    public var isItalic: Bool
}

/// An event (dialogue line) of a loaded track, copied out of libass.
public struct AssEvent: Sendable, Hashable {
    /// Position in the file's event list, from 0.
    public var index: Int
    /// Start time in milliseconds.
    public var start: Int
    /// Duration in milliseconds.
    public var duration: Int
    /// The index of its style in the track's styles.
    public var style: Int
    /// The raw text, override tags included.
    public var text: String

    /// End time in milliseconds.
    public var end: Int { start + duration }
}

/// A subtitle track parsed by libass; keeps its library alive. The corresponding C calls are `ass_read_memory`
/// and `ass_free_track`.
final class AssTrack {
    let handle: UnsafeMutablePointer<ASS_Track>
    let library: AssLibrary

    /// Parses ASS/SSA text (UTF-8). `name` is the file the bytes came from, for messages.
    init(library: AssLibrary, text: Data, name: String) throws(RenderError) {
        var bytes = [CChar](repeating: 0, count: text.count + 1)
        bytes.withUnsafeMutableBytes { _ = text.copyBytes(to: $0) }
        let track = bytes.withUnsafeMutableBufferPointer { buffer in
            ass_read_memory(library.handle, buffer.baseAddress, text.count, nil)
        }
        guard let track else {
            throw .unreadable(file: name, cause: "libass could not parse the subtitles (ass_read_memory)")
        }
        handle = track
        self.library = library
    }

    deinit { ass_free_track(handle) }

    /// The track's styles.
    var styles: [AssStyle] {
        let track = handle.pointee
        return (0..<Int(track.n_styles)).map { index in
            let style = track.styles[index]
            return AssStyle(
                name: style.Name.map { String(cString: $0) } ?? "",
                fontName: style.FontName.map { String(cString: $0) } ?? "",
                isBold: style.Bold != 0, isItalic: style.Italic != 0)
        }
    }

    /// The track's events, in file order.
    var events: [AssEvent] {
        let track = handle.pointee
        return (0..<Int(track.n_events)).map { index in
            let event = track.events[index]
            return AssEvent(
                index: index, start: Int(event.Start), duration: Int(event.Duration), style: Int(event.Style),
                text: event.Text.map { String(cString: $0) } ?? "")
        }
    }

    /// The index of the style libass uses for events whose style name is unknown.
    var defaultStyle: Int { Int(handle.pointee.default_style) }

    /// The end of the last event, in milliseconds (0 for an empty track).
    var endTime: Int { events.map(\.end).max() ?? 0 }
}
