import Foundation
import SubCore

// subset-bench FONT INDEX CHARS-FILE REPEAT: cuts face INDEX of FONT down to the characters of CHARS-FILE
// (UTF-8 text) REPEAT times through SubCore's FontSubsetter (HarfBuzz's hb-subset library), and prints
// `ms_per_subset bytes characters`. The shell script compares it with the hb-subset and pyftsubset CLIs.
let arguments = CommandLine.arguments
guard arguments.count == 5, let index = Int(arguments[2]), let repeats = Int(arguments[4]), repeats > 0,
    let text = try? String(contentsOfFile: arguments[3], encoding: .utf8)
else {
    FileHandle.standardError.write(Data("usage: subset-bench FONT INDEX CHARS-FILE REPEAT\n".utf8))
    exit(2)
}
let characters = Set(text.unicodeScalars.filter { $0.value > 0x20 })
var size = 0
let start = DispatchTime.now().uptimeNanoseconds
do {
    for _ in 0..<repeats {
        size = try FontSubsetter.subset(.file(path: arguments[1]), index: index, characters: characters).count
    }
} catch {
    FileHandle.standardError.write(Data("subset-bench: \(error)\n".utf8))
    exit(1)
}
let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / Double(repeats)
print(String(format: "%.2f %d %d", milliseconds, size, characters.count))
