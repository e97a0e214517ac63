/// The library's schema on PostgreSQL, one numbered migration at a time, recorded in `subfix_migrations`.
///
/// Each migration runs in its own transaction under an advisory lock, so that several workers starting at once
/// migrate the database once, and a failed migration leaves the previous version intact.
package enum PostgresMigrations {
    /// A schema change: its version, a name for the record, and its statements.
    package struct Migration: Sendable {
        package var version: Int
        package var name: String
        package var statements: [String]
    }

    /// The advisory lock key taken while migrating (an arbitrary constant: "subfix" in ASCII).
    static let lockKey = "126943253464696"

    /// Every migration, oldest first.
    package static let all: [Migration] = [
        Migration(
            version: 1, name: "library",
            statements: [
                """
                CREATE TABLE library_setting (name text PRIMARY KEY, value text NOT NULL)
                """,
                """
                CREATE TABLE media_file (
                    id bigserial PRIMARY KEY, path text NOT NULL UNIQUE, size bigint NOT NULL, mtime bigint NOT NULL,
                    duration double precision)
                """,
                """
                CREATE TABLE subtitle_source (
                    id bigserial PRIMARY KEY,
                    media_file_id bigint NOT NULL REFERENCES media_file (id) ON DELETE CASCADE,
                    kind text NOT NULL, codec text NOT NULL, language text, title text, player_index integer,
                    subtitle_index integer, encoding text)
                """,
                "CREATE INDEX subtitle_source_media_file ON subtitle_source (media_file_id)",
                """
                CREATE TABLE dialogue_line (
                    id bigserial PRIMARY KEY,
                    source_id bigint NOT NULL REFERENCES subtitle_source (id) ON DELETE CASCADE,
                    start_ms integer NOT NULL, end_ms integer NOT NULL, style text NOT NULL, text text NOT NULL,
                    tokens tsvector NOT NULL)
                """,
                "CREATE INDEX dialogue_line_source ON dialogue_line (source_id, start_ms, id)",
                "CREATE INDEX dialogue_line_tokens ON dialogue_line USING gin (tokens)",
            ]),
        Migration(
            version: 2, name: "jobs and queue",
            statements: [
                """
                CREATE TABLE job (
                    id bigserial PRIMARY KEY, command text NOT NULL, arguments text NOT NULL,
                    started_at timestamptz NOT NULL, finished_at timestamptz, status text NOT NULL,
                    counts text NOT NULL)
                """,
                """
                CREATE TABLE queue_job (
                    id bigserial PRIMARY KEY,
                    kind text NOT NULL CHECK (kind IN ('index')),
                    path text NOT NULL,
                    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed')),
                    attempts integer NOT NULL DEFAULT 0,
                    completions integer NOT NULL DEFAULT 0,
                    claim text, worker text, lease_until timestamptz,
                    result text, error text,
                    created_at timestamptz NOT NULL DEFAULT now(), finished_at timestamptz)
                """,
                "CREATE INDEX queue_job_pending ON queue_job (id) WHERE status = 'pending'",
                "CREATE INDEX queue_job_running ON queue_job (lease_until) WHERE status = 'running'",
            ]),
        Migration(
            version: 3, name: "font catalog",
            statements: [
                // As the SQLite library's font_face: the name lists and coverage are JSON text (not jsonb, which
                // refuses the \u0000 a hostile font's name may hold).
                """
                CREATE TABLE font_face (
                    id bigserial PRIMARY KEY, file text NOT NULL, face_index integer NOT NULL,
                    families text NOT NULL, full_names text NOT NULL, postscript_name text, weight integer NOT NULL,
                    slant text NOT NULL, coverage text NOT NULL, UNIQUE (file, face_index))
                """
            ]),
        Migration(
            version: 4, name: "fix jobs",
            statements: [
                "ALTER TABLE queue_job DROP CONSTRAINT queue_job_kind_check",
                "ALTER TABLE queue_job ADD CONSTRAINT queue_job_kind_check CHECK (kind IN ('index', 'fix'))",
                // The job's command-line options (a JSON array of strings), for fix jobs: where and how to fix.
                "ALTER TABLE queue_job ADD COLUMN options text NOT NULL DEFAULT '[]'",
            ]),
        Migration(
            version: 5, name: "job log as on SQLite",
            statements: [
                // The job log keeps what the SQLite one keeps: the arguments as a JSON array of strings and the
                // counts as a JSON object (version 2 wrote them space-separated and as `key=value` words; those
                // rows are converted), and one job_file row per file.
                """
                UPDATE job SET
                    arguments = CASE WHEN arguments = '' THEN '[]'
                                     ELSE array_to_json(string_to_array(arguments, ' '))::text END,
                    counts = coalesce(
                        (SELECT json_object_agg(split_part(word, '=', 1), split_part(word, '=', 2)::bigint)::text
                         FROM unnest(string_to_array(counts, ' ')) AS word WHERE word ~ '^[^=]+=-?[0-9]{1,18}$'),
                        '{}')
                """,
                "CREATE INDEX job_recent ON job (started_at DESC, id DESC)",
                """
                CREATE TABLE job_file (
                    id bigserial PRIMARY KEY, job_id bigint NOT NULL REFERENCES job (id) ON DELETE CASCADE,
                    path text NOT NULL, output text, status text NOT NULL, encoding text, counts text NOT NULL,
                    error text)
                """,
                "CREATE INDEX job_file_job ON job_file (job_id, id)",
            ]),
    ]

    /// Brings the database to the latest version; returns the versions applied now. Throws
    /// `PostgresError.unexpectedResult` when the database is newer than this subfix.
    @discardableResult
    package static func migrate(_ connection: PostgresConnection, migrations: [Migration] = all) throws
        -> [Int]
    {
        try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock($1::bigint)", [lockKey])
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS subfix_migrations (
                    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """)
        }
        var applied: [Int] = []
        for migration in migrations {
            let done: Bool = try connection.transaction {
                try connection.execute("SELECT pg_advisory_xact_lock($1::bigint)", [lockKey])
                let found = try connection.execute(
                    "SELECT 1 FROM subfix_migrations WHERE version = $1", [String(migration.version)])
                if found.count > 0 { return false }
                for statement in migration.statements { try connection.execute(statement) }
                try connection.execute(
                    "INSERT INTO subfix_migrations (version, name) VALUES ($1, $2)",
                    [String(migration.version), migration.name])
                return true
            }
            if done { applied.append(migration.version) }
        }
        let newest = try connection.execute("SELECT coalesce(max(version), 0) FROM subfix_migrations").int(0, 0)
        if newest > Int64(migrations.last?.version ?? 0) {
            throw PostgresError.unexpectedResult(
                "the database schema (version \(newest)) is newer than this subfix's; upgrade subfix")
        }
        return applied
    }

    /// The versions recorded in the database.
    package static func versions(_ connection: PostgresConnection) throws -> [Int] {
        let result = try connection.execute("SELECT version FROM subfix_migrations ORDER BY version")
        return try (0..<result.count).map { Int(try result.int($0, 0)) }
    }
}
