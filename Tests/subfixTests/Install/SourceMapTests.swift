import Foundation
import Testing

/// `Sources/README.md` is the map a newcomer reads (issue 32, item 6): every Swift target folder has its row, and
/// no file imports a module its row does not allow.
@Suite struct SourceMapTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// The map's rows: folder name → the modules it may import.
    static func allowedImports() throws -> [String: Set<String>] {
        let map = try String(contentsOf: sources.appendingPathComponent("README.md"), encoding: .utf8)
        var rows: [String: Set<String>] = [:]
        for line in map.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4 else { continue }
            let folder = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`/"))
            // "SubDB (`package` API)" names SubDB; notes in parentheses are dropped.
            let modules = cells[3].replacingOccurrences(of: #"\([^)]*\)"#, with: "", options: .regularExpression)
                .split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")) }
            rows[folder] = Set(modules.filter { !$0.isEmpty })
        }
        return rows
    }

    /// The modules a Swift file imports (`import X`, `internal import X`, `@testable import X`).
    static func imports(of file: URL) throws -> Set<String> {
        let text = try String(contentsOf: file, encoding: .utf8)
        var modules = Set<String>()
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                words[..<at].allSatisfy({ ["internal", "package", "public", "@testable", "@_exported"].contains($0) })
            else { continue }
            // `import struct Foundation.Date` imports a declaration of Foundation.
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
            let name = kinds.contains(words[at + 1]) && at + 2 < words.count ? words[at + 2] : words[at + 1]
            modules.insert(String(name.split(separator: ".").first ?? ""))
        }
        return modules
    }

    @Test func everyImportIsOnTheMap() throws {
        let rows = try Self.allowedImports()
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter {
            !$0.hasPrefix("C") && !$0.contains(".")
        }
        #expect(!folders.isEmpty)
        for folder in folders.sorted() {
            let allowed = try #require(rows[folder], "Sources/\(folder) has no row in Sources/README.md")
            let files = FileManager.default.enumerator(
                at: Self.sources.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            for case let file as URL in files?.allObjects ?? [] where file.pathExtension == "swift" {
                for module in try Self.imports(of: file) where !allowed.contains(module) {
                    Issue.record(
                        "\(file.path): imports \(module), which Sources/README.md does not allow for \(folder)/")
                }
            }
        }
    }

    /// The checker finds what it is for: a forbidden import in a file is reported.
    @Test func theCheckerSeesImports() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("map-\(UUID().uuidString).swift")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(
            "internal import CSQLite\n@testable import SubDB\nimport struct Foundation.Date\n// import Nothing\n".utf8
        )
        .write(to: file)
        #expect(try Self.imports(of: file) == ["CSQLite", "SubDB", "Foundation"])
        #expect(try Self.allowedImports()["SubCore"]?.contains("SubDB") == false)
    }
}
