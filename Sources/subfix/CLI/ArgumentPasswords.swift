import Foundation
import SubfixPostgres

/// Hides the passwords of `postgresql://` URLs given as arguments from other users: `ps` and
/// `/proc/PID/cmdline` read the process's argument bytes, so once the arguments are decoded those bytes are
/// overwritten with `*` in place (the lengths stay; the decoded copies keep the password for libpq).
enum ArgumentPasswords {
    /// Overwrites each argument's URL password (`PostgresURL.passwordRange`'s rule, whatever the URL's parse);
    /// returns whether any argument held one.
    static func hide() -> Bool {
        var found = false
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let length = strlen(argument)
            let bytes = [UInt8](UnsafeRawBufferPointer(start: argument, count: length))
            guard let range = PostgresURL.passwordRange(in: bytes), !range.isEmpty else { continue }
            for offset in range { argument[offset] = CChar(UInt8(ascii: "*")) }
            found = true
        }
        return found
    }
}
