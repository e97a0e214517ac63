#!/usr/bin/env bash
# SubDB against the raw sqlite3 C API, same schema and data, same run.
set -euo pipefail
.build/release/subdb-bench "$@"
