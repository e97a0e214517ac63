#define _GNU_SOURCE
#include "csystem.h"

#include <fcntl.h>
#include <unistd.h>

int csystem_start_writeback(int descriptor, int64_t offset, int64_t length) {
    return sync_file_range(descriptor, (off64_t)offset, (off64_t)length, SYNC_FILE_RANGE_WRITE);
}

int csystem_sync_file_system(int descriptor) { return syncfs(descriptor); }
