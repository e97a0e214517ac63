internal import CFFmpegLoader

/// FFmpeg's libraries (libavformat, libavcodec, libavutil, libswscale), loaded on first use rather than at
/// process start (text-only commands never pay for the ~170 libraries they pull in). Every owner of an FFmpeg
/// resource calls `load(file:)` first.
enum FFmpegLibraries {
    /// nil once the libraries are loaded, else the dynamic loader's message. Computed once per process.
    private static let failure: String? = {
        var buffer = [CChar](repeating: 0, count: 512)
        let status = buffer.withUnsafeMutableBufferPointer { cffmpeg_load($0.baseAddress, $0.count) }
        return status == 0 ? nil : string(buffer)
    }()

    /// Loads FFmpeg's libraries, or throws `.librariesUnavailable` about `file` with the loader's reason.
    static func load(file: String) throws(MediaError) {
        if let failure { throw .librariesUnavailable(file: file, message: failure) }
    }

    /// Whether this process has loaded them (a text-only run never does).
    static var isLoaded: Bool { cffmpeg_is_loaded() != 0 }

    /// The dynamic loader's message for `soname` if it cannot be opened, else nil; loads nothing for good.
    static func problem(opening soname: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let status = buffer.withUnsafeMutableBufferPointer { cffmpeg_try_open(soname, $0.baseAddress, $0.count) }
        return status == 0 ? nil : string(buffer)
    }

    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
