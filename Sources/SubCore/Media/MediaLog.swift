internal import CFFmpeg
import Foundation
import Synchronization

/// Routes libavformat/libavcodec log lines (the corresponding C call is `av_log_set_callback`) away from the
/// terminal and into whichever `capture` is running on the calling thread, so a demuxer's "File ended
/// prematurely" becomes part of an extraction's result instead of noise on standard error.
enum MediaLog {
    /// One logged line: FFmpeg's level (`AV_LOG_ERROR` is 16, `AV_LOG_WARNING` 24), whether a codec logged it,
    /// and its text.
    struct Line: Sendable, Equatable {
        var level: Int32
        var fromCodec = false
        var text: String

        /// An error the demuxer or its I/O logged: the container itself is damaged or cut short. A decoder's
        /// complaint about one frame (an H.264 slice, say) is not: the packets are still there to copy.
        var isDamage: Bool { level <= AV_LOG_ERROR && !fromCodec }
    }

    /// Lines collected per thread (keyed by `pthread_self`): demuxers and text subtitle codecs log on the
    /// thread that called them.
    private static let collectors = Mutex<[UInt: [Line]]>([:])

    /// Installs the sink once per process; until then libav logs to standard error as usual.
    private static let installed: Bool = {
        cffmpeg_set_log_sink { level, fromCodec, message in
            guard level <= AV_LOG_WARNING, let message else { return }
            let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return }
            let thread = UInt(pthread_self())
            MediaLog.collectors.withLock { collectors in
                collectors[thread]?.append(Line(level: level, fromCodec: fromCodec != 0, text: text))
            }
        }
        return true
    }()

    /// Makes sure libav's log lines go through `MediaLog` (and not to standard error).
    static func install() {
        _ = installed
    }

    /// Runs `body`, returning its result and the warnings and errors libav logged on this thread meanwhile.
    static func capture<T>(_ body: () throws -> T) rethrows -> (T, [Line]) {
        install()
        let thread = UInt(pthread_self())
        let outer = collectors.withLock { collectors -> [Line]? in
            let previous = collectors[thread]
            collectors[thread] = []
            return previous
        }
        func finish() -> [Line] {
            collectors.withLock { collectors in
                let lines = collectors[thread] ?? []
                // A capture inside another one hands its lines on to the outer one too.
                if let outer { collectors[thread] = outer + lines } else { collectors[thread] = nil }
                return lines
            }
        }
        let result: T
        do {
            result = try body()
        } catch {
            _ = finish()
            throw error
        }
        return (result, finish())
    }
}
