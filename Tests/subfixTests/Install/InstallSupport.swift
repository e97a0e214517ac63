import Foundation
import Testing

/// What the install tests share: the checkout, and running a tool (bash, zsh, fish, groff, the install scripts)
/// to its end with its output collected.
enum InstallSupport {
    /// The checkout this test was compiled from (its Scripts/ and Fonts/).
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// What one tool run gave.
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arguments` (the first found on `PATH`, which has /usr/sbin for dpkg) in `directory` with `stdin`.
    static func run(
        _ arguments: [String], in directory: String = "/", environment: [String: String] = [:], stdin: String = ""
    ) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("subfix-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let files = ["stdin", "stdout", "stderr"].map { scratch.appendingPathComponent($0) }
        try Data(stdin.utf8).write(to: files[0])
        for file in files.dropFirst() { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var base = [
            "PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": scratch.path, "LANG": "C.UTF-8",
            "XDG_DATA_HOME": scratch.path + "/data",
        ]
        for (key, value) in environment { base[key] = value }
        process.environment = base
        process.standardInput = try FileHandle(forReadingFrom: files[0])
        process.standardOutput = try FileHandle(forWritingTo: files[1])
        process.standardError = try FileHandle(forWritingTo: files[2])
        try process.run()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: files[1]), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: files[2]), as: UTF8.self))
    }

    /// A fresh folder for one test.
    static func folder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("subfix-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A fontconfig configuration with no fonts at all (its cache in `folder`): a machine without CJK fonts.
    static func emptyFontconfig(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("empty-fonts.conf").path
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
            <fontconfig><cachedir>\(folder.path)/fontconfig-cache</cachedir></fontconfig>
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
