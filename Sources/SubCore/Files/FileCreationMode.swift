import Foundation

/// The permissions a new file gets, as `open(path, O_CREAT, 0666)` would give it: 0666 less the process's umask.
/// `mkstemp` makes its files 0600 whatever the umask, so files written through a temporary file are `fchmod`ed to
/// this before they are renamed into place (a media server's account can then read an extracted track).
package enum FileCreationMode {
    /// 0666 less the umask, read once from `/proc/self/status` (which does not change the umask, unlike the C
    /// call `umask`, whose set-and-restore would race with threads creating files).
    package static let newFile: mode_t = 0o666 & ~currentUmask()

    /// The process's umask: the `Umask:` line of `/proc/self/status`, or 022 when it cannot be read.
    static func currentUmask() -> mode_t {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0o022 }
        for line in status.split(separator: "\n") where line.hasPrefix("Umask:") {
            let digits = line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces)
            if let mask = mode_t(digits, radix: 8) { return mask & 0o777 }
        }
        return 0o022
    }
}
