import Foundation
import SubfixLibrary
import TestSupport
import Testing

@testable import SubfixPostgres

/// The font catalog in a PostgreSQL library: the same records and replacement rules as the SQLite one.
@Suite struct PostgresFontCatalogTests {
    static func face(_ file: String, _ index: Int, family: String) -> FontFaceRecord {
        FontFaceRecord(
            file: file, faceIndex: index, families: [family, "思源黑体"], fullNames: [family + " Regular"],
            postscriptName: "PS-" + family, weight: 400, slant: "roman", coverage: ["Han": 20902, "Latin": 95])
    }

    @Test func storesReplacesAndForgetsFacesAsTheSQLiteLibraryDoes() throws {
        let server = try PostgresTestServer.shared()
        let postgres = try PostgresLibrary(url: PostgresURL(try server.makeDatabase()))
        let directory = try TemporaryDirectory()
        let sqlite = try LibraryDatabase(path: directory.path("library.sqlite"), mode: .create)
        // Names a hostile font or file system may hold: quotes, backslashes, braces and commas (the text[] literal
        // of the DELETE), a NUL and a line break inside a family name.
        let odd = "/f/\"q\",{b}\\x.ttc"
        let first = [
            Self.face("/f/b.otf", 0, family: "Noto Sans CJK SC"), Self.face(odd, 0, family: "A\u{0}B\nC"),
            Self.face(odd, 1, family: "Second"), Self.face("/f/gone.ttf", 0, family: "Gone"),
        ]
        try postgres.storeFontFaces(first)
        try sqlite.storeFontFaces(first)
        // Ids differ; PostgreSQL's text cannot hold NUL, so a plain-text column (the PostScript name) loses it,
        // as dialogue text does (the JSON name lists keep it escaped).
        func withoutIds(_ faces: [FontFaceRecord]) -> [FontFaceRecord] {
            faces.map { face in
                var face = face
                face.id = nil
                face.postscriptName = face.postscriptName?.replacingOccurrences(of: "\u{0}", with: "")
                return face
            }
        }
        let (fromPostgres, fromSQLite) = (try postgres.fontFaces(), try sqlite.fontFaces())
        #expect(withoutIds(fromPostgres) == withoutIds(fromSQLite), "\(fromPostgres) \(fromSQLite)")
        #expect(try postgres.fontFaces().map(\.file) == [odd, odd, "/f/b.otf", "/f/gone.ttf"])
        #expect(fromPostgres.first?.families.first == "A\u{0}B\nC")
        #expect(fromPostgres.first?.postscriptName == "PS-AB\nC")

        // A file listed again replaces its faces (one face fewer now); a vanished file is forgotten.
        let second = [Self.face(odd, 0, family: "Only")]
        try postgres.storeFontFaces(second, forgetting: ["/f/gone.ttf"])
        try sqlite.storeFontFaces(second, forgetting: ["/f/gone.ttf"])
        #expect(withoutIds(try postgres.fontFaces()) == withoutIds(try sqlite.fontFaces()))
        #expect(try postgres.fontFaces().map(\.families.first) == ["Only", "Noto Sans CJK SC"])
    }

    @Test func aRowThatIsNotTheExpectedJSONIsAnError() throws {
        let server = try PostgresTestServer.shared()
        let postgres = try PostgresLibrary(url: PostgresURL(try server.makeDatabase()))
        try postgres.connection.execute(
            """
            INSERT INTO font_face (file, face_index, families, full_names, weight, slant, coverage)
            VALUES ('/x.ttf', 0, '{"not":"a list"}', '[]', 400, 'roman', '{}')
            """)
        #expect(throws: PostgresError.unexpectedResult("font_face row 0 column 3 is not the JSON expected")) {
            try postgres.fontFaces()
        }
    }
}
