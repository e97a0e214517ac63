internal import CSystem

/// Starts the kernel writing a file's data to disk without waiting for it, so that a later `fsync` has little
/// left to wait for. The corresponding C call is `sync_file_range` with `SYNC_FILE_RANGE_WRITE`.
enum Writeback {
    /// Asks the kernel to start writing `length` bytes at `offset` of the open file `descriptor`. Only a hint:
    /// returns false when the call failed (an error the caller's `fsync` will report if it matters).
    @discardableResult
    static func start(descriptor: Int32, offset: Int64, length: Int64) -> Bool {
        csystem_start_writeback(descriptor, offset, length) == 0
    }
}
