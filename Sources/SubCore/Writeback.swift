internal import CSystem
import Glibc

/// Starts the kernel writing a file's data to disk without waiting for it, so that a later `fsync` has little
/// left to wait for. The corresponding C call is `sync_file_range` with `SYNC_FILE_RANGE_WRITE`.
enum Writeback {
    /// Asks the kernel to start writing `length` bytes at `offset` of the open file `descriptor`. Only a hint:
    /// returns false when the call failed (an error the caller's `fsync` will report if it matters).
    @discardableResult
    static func start(descriptor: Int32, offset: Int64, length: Int64) -> Bool {
        csystem_start_writeback(descriptor, offset, length) == 0
    }

    /// Flushes the whole file system that holds the open file `descriptor` (`syncfs`); returns 0 or the `errno`.
    static func syncFileSystem(descriptor: Int32) -> Int32 {
        csystem_sync_file_system(descriptor) == 0 ? 0 : errno
    }
}
