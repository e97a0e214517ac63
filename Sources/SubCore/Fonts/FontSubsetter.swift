internal import CHarfBuzz
import Foundation

/// Cuts one face of a font file down to the characters a subtitle draws, through HarfBuzz's subsetter
/// (`hb_subset_or_fail`): the glyphs those characters map to, plus what the default OpenType layout features
/// reach from them (vertical forms, ligatures), so shaping still works. Name IDs 0 to 6 are kept, so the
/// subset answers to the same family name as the face it came from.
///
///     let subset = try FontSubsetter.subset(face.source, index: face.index, characters: Set("你好".unicodeScalars))
public enum FontSubsetter {
    /// The subset of face `index` of `source` holding `characters` (those the face maps; others are ignored).
    /// Memory fonts are read from `data`; files are mapped from disk.
    public static func subset(
        _ source: FontSource, index: Int, data: Data? = nil, characters: Set<Unicode.Scalar>
    ) throws(FontError) -> Data {
        let name = source.name
        for library in [TextLibrary.harfbuzz, .harfbuzzSubset] {
            if let problem = library.loadProblem() {
                throw .libraryUnavailable(soname: library.soname, message: problem)
            }
        }
        let blob: HarfBuzzBlob
        switch source {
        case .file(let path): blob = try HarfBuzzBlob(path: path)
        case .memory: blob = try HarfBuzzBlob(data: data ?? Data(), name: name)
        }
        let count = Int(hb_face_count(blob.handle))
        guard count > 0 else { throw .unreadable(file: name, cause: "not an OpenType font (HarfBuzz finds no face)") }
        guard index >= 0, index < count else {
            throw .unreadable(file: name, cause: "no face \(index) (the file has \(count))")
        }
        let face = try HarfBuzzFace(blob: blob, index: index, name: name)
        guard hb_face_get_glyph_count(face.handle) > 0 else {
            throw .unreadable(file: name, cause: "face \(index) has no glyphs HarfBuzz can read")
        }
        let input = try HarfBuzzSubsetInput(name: name)
        let unicodes = hb_subset_input_unicode_set(input.handle)
        for scalar in characters.sorted(by: { $0.value < $1.value }) { hb_set_add(unicodes, scalar.value) }
        guard let result = hb_subset_or_fail(face.handle, input.handle) else {
            throw .unreadable(file: name, cause: "HarfBuzz could not subset face \(index) (hb_subset_or_fail)")
        }
        let subset = HarfBuzzFace(owning: result)
        let bytes = HarfBuzzBlob(owning: hb_face_reference_blob(subset.handle))
        var length: UInt32 = 0
        guard let pointer = hb_blob_get_data(bytes.handle, &length), length > 0 else {
            throw .unreadable(file: name, cause: "HarfBuzz produced an empty subset of face \(index)")
        }
        return Data(bytes: pointer, count: Int(length))
    }
}

/// A HarfBuzz blob (font bytes). The corresponding C calls are `hb_blob_create_from_file_or_fail`,
/// `hb_blob_create_or_fail` (memory fonts, copied by HarfBuzz) and `hb_blob_destroy`.
private final class HarfBuzzBlob {
    let handle: OpaquePointer

    init(path: String) throws(FontError) {
        guard let blob = hb_blob_create_from_file_or_fail(path) else {
            throw .unreadable(file: path, cause: "cannot read the font file (hb_blob_create_from_file_or_fail)")
        }
        handle = blob
    }

    init(data: Data, name: String) throws(FontError) {
        let blob = data.withUnsafeBytes { bytes -> OpaquePointer? in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count > 0 else {
                return nil
            }
            return hb_blob_create_or_fail(base, UInt32(clamping: bytes.count), HB_MEMORY_MODE_DUPLICATE, nil, nil)
        }
        guard let blob else { throw .unreadable(file: name, cause: "empty or unreadable font data") }
        handle = blob
    }

    /// Takes over a blob HarfBuzz returned with a reference for us.
    init(owning blob: OpaquePointer) {
        handle = blob
    }

    deinit { hb_blob_destroy(handle) }
}

/// A HarfBuzz face. The corresponding C calls are `hb_face_create` and `hb_face_destroy`.
private final class HarfBuzzFace {
    let handle: OpaquePointer
    /// The blob the face reads from (HarfBuzz references it too; kept for clarity of ownership).
    private let blob: HarfBuzzBlob?

    init(blob: HarfBuzzBlob, index: Int, name: String) throws(FontError) {
        guard let face = hb_face_create(blob.handle, UInt32(index)) else {
            throw .unreadable(file: name, cause: "HarfBuzz cannot open face \(index) (hb_face_create)")
        }
        handle = face
        self.blob = blob
    }

    /// Takes over a face HarfBuzz returned (a subset).
    init(owning face: OpaquePointer) {
        handle = face
        blob = nil
    }

    deinit { hb_face_destroy(handle) }
}

/// What to keep in a subset. The corresponding C calls are `hb_subset_input_create_or_fail` and
/// `hb_subset_input_destroy`.
private final class HarfBuzzSubsetInput {
    let handle: OpaquePointer

    init(name: String) throws(FontError) {
        guard let input = hb_subset_input_create_or_fail() else {
            throw .unreadable(file: name, cause: "out of memory (hb_subset_input_create_or_fail)")
        }
        handle = input
    }

    deinit { hb_subset_input_destroy(handle) }
}
