#ifndef CSYSTEM_H
#define CSYSTEM_H
#include <stdint.h>

/* Linux calls that Swift's Glibc module does not expose (they need _GNU_SOURCE). */

/* Starts writeback of `length` bytes at `offset` of `descriptor` without waiting for it
 * (sync_file_range with SYNC_FILE_RANGE_WRITE), so that a later fsync has less left to wait for.
 * Returns 0, or -1 with errno set; a file system without it is not an error for the caller. */
int csystem_start_writeback(int descriptor, int64_t offset, int64_t length);

/* Flushes every file of the file system that holds `descriptor` to disk, and reports a write-back error any file
 * of it has had since the descriptor was opened (syncfs; Linux 5.8 and later report errors). Returns 0, or -1 with
 * errno set. */
int csystem_sync_file_system(int descriptor);

#endif
