#!/usr/bin/env bash
# SubDB against the raw sqlite3 C API, same schema and data (100,000 rows), same run.
# SUBDB_BENCH_ROWS=N changes the row count. Databases go to bench-out/subdb/.
set -euo pipefail
cd "$(dirname "$0")/.."
.build/release/subdb-bench "$@"
