import Foundation
import SubfixLibrary

extension PostgresLibrary {
    /// Stores a font catalog as the SQLite library does: the faces of each file replace what was recorded for
    /// that file, and the files in `vanished` are forgotten, all in one transaction.
    public func storeFontFaces(_ faces: [FontFaceRecord], forgetting vanished: [String] = []) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json(_ value: some Encodable) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        try connection.transaction {
            let files = Set(faces.map(\.file)).union(vanished).map(Self.storable)
            try connection.execute("DELETE FROM font_face WHERE file = ANY($1::text[])", [Self.textArray(files)])
            for face in faces {
                try connection.execute(
                    """
                    INSERT INTO font_face (file, face_index, families, full_names, postscript_name, weight, slant,
                                           coverage)
                    VALUES ($1, $2::integer, $3, $4, $5, $6::integer, $7, $8)
                    ON CONFLICT (file, face_index) DO UPDATE SET families = excluded.families,
                        full_names = excluded.full_names, postscript_name = excluded.postscript_name,
                        weight = excluded.weight, slant = excluded.slant, coverage = excluded.coverage
                    """,
                    [
                        Self.storable(face.file), String(face.faceIndex), try json(face.families),
                        try json(face.fullNames), face.postscriptName.map(Self.storable), String(face.weight),
                        Self.storable(face.slant), try json(face.coverage),
                    ])
            }
        }
    }

    /// Every face in the catalog, by file (in byte order, as SQLite sorts) and face index.
    public func fontFaces() throws -> [FontFaceRecord] {
        let result = try connection.execute(
            """
            SELECT id, file, face_index, families, full_names, postscript_name, weight, slant, coverage
            FROM font_face ORDER BY file COLLATE "C", face_index
            """)
        let decoder = JSONDecoder()
        func decoded<T: Decodable>(_ type: T.Type, _ row: Int, _ column: Int) throws -> T {
            do {
                return try decoder.decode(type, from: Data((result.text(row, column) ?? "").utf8))
            } catch {
                throw PostgresError.unexpectedResult("font_face row \(row) column \(column) is not the JSON expected")
            }
        }
        return try (0..<result.count).map { row in
            FontFaceRecord(
                id: try result.int(row, 0), file: result.text(row, 1) ?? "", faceIndex: Int(try result.int(row, 2)),
                families: try decoded([String].self, row, 3), fullNames: try decoded([String].self, row, 4),
                postscriptName: result.text(row, 5), weight: Int(try result.int(row, 6)),
                slant: result.text(row, 7) ?? "", coverage: try decoded([String: Int].self, row, 8))
        }
    }

    /// A `text[]` literal (`{"a","b\"c"}`) of `values`, bound as one parameter.
    static func textArray(_ values: [String]) -> String {
        "{"
            + values.map { value in
                "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    + "\""
            }.joined(separator: ",") + "}"
    }
}
