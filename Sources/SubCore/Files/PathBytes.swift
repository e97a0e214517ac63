import Foundation

/// File names are bytes on Linux, not always UTF-8 (`bad\xff\xfe.srt`). subfix keeps paths as `String`s and maps
/// each byte that is not part of valid UTF-8 to one private-use scalar (U+10FF80 to U+10FFFF, byte + U+10FF00),
/// so a name decodes losslessly, encodes back to its very bytes at each system call, and prints escaped
/// (`bad\xff\xfe.srt`, through `MessageText.escaped`). Valid UTF-8 names are unchanged.
///
///     let name = PathBytes.decode([0x62, 0xFF])          // "b\u{10FFFF}"
///     PathBytes.withCString(name) { open($0, O_RDONLY) }  // opens the file named 62 FF
package enum PathBytes {
    /// The first scalar that stands for a raw byte (0x80 + U+10FF00).
    static let firstByteScalar: UInt32 = 0x10FF80

    /// The byte a scalar stands for, or nil for an ordinary scalar.
    package static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= firstByteScalar ? UInt8(truncatingIfNeeded: scalar.value - 0x10FF00) : nil
    }

    /// A name or path's bytes as a `String`, invalid UTF-8 bytes mapped one to one.
    package static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index != bytes.endIndex {
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = bytes[index...].makeIterator()
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                scalars.append(Unicode.UTF8.decode(encoded))
                index = bytes.index(index, offsetBy: encoded.count)
            case .error(let length):
                for byte in bytes[index...].prefix(length) {
                    scalars.append(Unicode.Scalar(0x10FF00 + UInt32(byte)) ?? "\u{FFFD}")
                }
                index = bytes.index(index, offsetBy: length)
            case .emptyInput:
                index = bytes.endIndex
            }
        }
        return String(scalars)
    }

    /// A C string (as `argv` holds it) as a `String`, losslessly.
    package static func decode(cString: UnsafePointer<CChar>) -> String {
        decode(UnsafeBufferPointer(start: cString, count: strlen(cString)).lazy.map { UInt8(bitPattern: $0) })
    }

    /// Whether `path` stands for bytes that are not UTF-8 (it holds a mapped scalar), so that its UTF-8 is not its
    /// bytes.
    package static func hasRawBytes(_ path: String) -> Bool {
        path.unicodeScalars.contains { $0.value >= firstByteScalar }
    }

    /// The bytes a `String` path stands for: its UTF-8, with each mapped scalar back to its raw byte.
    package static func encode(_ path: String) -> [UInt8] {
        guard hasRawBytes(path) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let byte = rawByte(scalar) {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with the path as the NUL-terminated bytes a system call takes.
    package static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows
        -> Result
    {
        guard path.unicodeScalars.contains(where: { $0.value >= firstByteScalar }) else {
            return try path.withCString(body)
        }
        let bytes = encode(path).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { buffer in
            // A buffer made from a non-empty array always has a base address.
            guard let base = buffer.baseAddress else { return try "".withCString(body) }
            return try body(base)
        }
    }

    /// The names in the folder at `path` (without `.` and `..`), decoded losslessly, in the order the file system
    /// gives them; nil with errno set when the folder cannot be opened. The corresponding C calls are `opendir`,
    /// `readdir` and `closedir`.
    package static func names(inFolder path: String) -> Result<[String], InputFileError> {
        guard let folder = withCString(path, { opendir($0) }) else {
            return .failure(InputFileError(file: path, problem: .system(function: "opendir", code: errno)))
        }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                decode(raw.prefix { $0 != 0 })
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }
}
