internal import CFFmpegLoader
import Foundation

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

    /// The sonames `load(file:)` opens, in order: libavutil, libswscale, libavcodec, libavformat.
    static var sonames: [String] { (0..<4).compactMap { cffmpeg_soname(Int32($0)).map { String(cString: $0) } } }

    /// The dynamic loader's message when `sonames` cannot all be opened the way `load(file:)` opens them, else
    /// nil; whatever it opened is closed again and the loaded state is untouched.
    static func problem(opening sonames: [String]) -> String? {
        var message = [CChar](repeating: 0, count: 512)
        var handles = [UnsafeMutableRawPointer?](repeating: nil, count: sonames.count)
        let cStrings = sonames.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let names = cStrings.map { UnsafePointer($0) }
        let status = names.withUnsafeBufferPointer { names in
            handles.withUnsafeMutableBufferPointer { handles in
                message.withUnsafeMutableBufferPointer {
                    cffmpeg_open_libraries(
                        names.baseAddress, Int32(names.count), handles.baseAddress, $0.baseAddress, $0.count)
                }
            }
        }
        guard status != 0 else {
            handles.reversed().forEach { if let handle = $0 { dlclose(handle) } }
            return nil
        }
        return string(message)
    }

    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
