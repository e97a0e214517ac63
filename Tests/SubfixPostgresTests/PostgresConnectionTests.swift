import Foundation
import SubfixLibrary
import TestSupport
import Testing

@testable import SubfixPostgres

@Suite struct PostgresConnectionTests {
    /// libpq missing from the machine: one line with the dynamic loader's reason, and not a lost connection (a
    /// worker would retry forever).
    @Test func aMissingLibPQIsOneLineAndNotRetried() {
        let error = PostgresError.libraryMissing(message: "libpq.so.5: cannot open shared object file")
        #expect(
            error.description
                == "PostgreSQL's client library cannot be loaded: libpq.so.5: cannot open shared object file")
        #expect(!error.isConnectionLost)
    }

    @Test func bindsParametersNeverInterpolatingThem() throws {
        let server = try PostgresTestServer.shared()
        let connection = try PostgresConnection(url: PostgresURL(try server.makeDatabase()))
        try connection.execute("CREATE TABLE t (v text)")
        let hostile = "'); DROP TABLE t; --"
        try connection.execute("INSERT INTO t (v) VALUES ($1), ($2)", [hostile, nil])
        let result = try connection.execute("SELECT v FROM t ORDER BY v NULLS LAST")
        #expect(result.count == 2)
        #expect(result.text(0, 0) == hostile)
        #expect(result.text(1, 0) == nil)
    }

    @Test func aFailedStatementCarriesTheServersMessageAndState() throws {
        let server = try PostgresTestServer.shared()
        let connection = try PostgresConnection(url: PostgresURL(try server.makeDatabase()))
        #expect {
            try connection.execute("SELECT * FROM no_such_table")
        } throws: { error in
            guard case .query(let message, let state) = error as? PostgresError else { return false }
            return message.contains("no_such_table") && state == "42P01" && !message.contains("\n")
        }
        // The connection still works after the error.
        #expect(try connection.execute("SELECT 1 + $1::int", ["41"]).text(0, 0) == "42")
    }

    @Test func aWrongPasswordIsOneLineWithoutThePassword() throws {
        let server = try PostgresTestServer.shared()
        _ = try server.makeDatabase()
        let wrong = "Wr0ng-Secret"
        let url = try PostgresURL(server.url(database: "postgres", password: wrong))
        do {
            _ = try PostgresConnection(url: url)
            Issue.record("connected with a wrong password")
        } catch {
            let text = "\(error)"
            #expect(text.contains("password authentication failed"), "\(text)")
            #expect(!text.contains(wrong))
            #expect(!text.contains("\n"))
            #expect(text.contains("***"))
        }
    }

    @Test func aServerThatIsNotThereIsAConnectionError() throws {
        let url = try PostgresURL("postgresql://u:pw-xyz@127.0.0.1:1/db")
        #expect {
            _ = try PostgresConnection(url: url, connectTimeoutSeconds: 2)
        } throws: { error in
            guard case .connection(let shown, let message) = error as? PostgresError else { return false }
            return shown == "postgresql://u:***@127.0.0.1:1/db" && !message.contains("pw-xyz")
        }
    }

    @Test(arguments: [
        ("postgresql://u:pw@h/db", "postgresql://u:***@h/db"),
        ("postgres://u:p%40w@h:5432/db?sslmode=disable", "postgres://u:***@h:5432/db?sslmode=disable"),
        ("postgresql://u@h/db?password=pw&sslmode=disable", "postgresql://u@h/db?password=***&sslmode=disable"),
        ("postgresql://h/db", "postgresql://h/db"),
        ("postgresql://u:a:b@c@h/db", "postgresql://u:***@h/db"),
        // Unencoded `/`, `?` and `@` in the password (issue 35, item 2): whatever the parse, never shown.
        ("postgresql://u:pa/ss@h/db", "postgresql://u:***@h/db"),
        ("postgresql://u:pa?ss@h:5432/db", "postgresql://u:***@h:5432/db"),
        ("postgresql://u:p@ss9word@h/db", "postgresql://u:***@h/db"),
    ])
    func redactsPasswords(url: String, shown: String) {
        #expect(PostgresURL.redacted(url) == shown)
    }

    /// libpq splits `u:p@ss9word@h` at the first `@` and echoes `ss9word@h` as a host name: every piece of the
    /// password is removed from its messages, and a message's own words are not taken for a URL.
    @Test func libpqMessagesLoseEveryPieceOfThePassword() {
        let password = PostgresURL.passwordPart(of: "postgresql://u:p@ss9word@h/db")
        #expect(password == "p@ss9word")
        let message = PostgresURL.scrub(
            "could not translate host name \"ss9word@h\" to address", password: password)
        #expect(message == "could not translate host name \"***@h\" to address")
        #expect(
            PostgresURL.redactedMessage("cannot connect to postgresql://u:pw@h/db: host \"x@y\" is down")
                == "cannot connect to postgresql://u:***@h/db: host \"x@y\" is down")
        let bytes = Array("--db=postgresql://me:s3cr/et?x@h/db".utf8)
        let range = PostgresURL.passwordRange(in: bytes)
        #expect(range.map { String(decoding: bytes[$0], as: UTF8.self) } == "s3cr/et?x")
    }

    @Test(arguments: [
        "mysql://u@h/db", "/tmp/library.sqlite", "postgresql://u:pw@h/db?nosuchoption=1", "postgresql://h:port/db\n",
    ])
    func malformedURLsAreRefusedWithoutThePassword(text: String) {
        #expect {
            _ = try PostgresURL(text)
        } throws: { error in
            guard case .malformedURL(let shown, _) = error as? PostgresError else { return false }
            return !shown.contains(":pw@") && !"\(error)".contains(":pw@")
        }
    }
}
