import Testing

@testable import subfix

/// A table of one made-up command, so the parser is tested apart from the real commands.
private let sample = CommandSpec(
    name: "fix", summary: "Rewrite fonts.",
    positionals: [PositionalSpec(name: "PATH", minimum: 1, maximum: nil, help: "Files or folders.")],
    options: [
        .value(.out, "DIR", "Write here."),
        .flag(.json, "JSON lines."),
        .value(.also, "NAME", repeatable: true, "Also rewrite NAME."),
        .value(.jobs, "N", short: "j", "Parallel jobs."),
        .flag(.dryRun, short: "n", "Write nothing."),
    ],
    run: { arguments, io in
        io.print("paths=\(arguments.positionals) also=\(arguments.all(.also)) json=\(arguments.has(.json))")
        return .success
    })

@Suite struct ArgumentParserTests {
    @Test func tokenizesLongShortAndPositionals() {
        #expect(
            tokenize(["--out=x", "--json", "-nj", "4", "a", "--", "--not-an-option", "-"]) == [
                .long(name: "out", value: "x"), .long(name: "json", value: nil), .short("n"), .short("j"),
                .positional("4"), .positional("a"), .positional("--not-an-option"), .positional("-"),
            ])
    }

    @Test func parsesValuesFlagsAndRepeatedOptions() throws {
        let parsed = try parse(
            tokenize(["a.ass", "--also", "X", "--out", "o", "--also=Y", "-n", "b.srt"]), for: sample)
        #expect(parsed.positionals == ["a.ass", "b.srt"])
        #expect(parsed.all(.also) == ["X", "Y"])
        #expect(parsed.value(.out) == "o")
        #expect(parsed.has(.dryRun))
        #expect(!parsed.has(.json))
    }

    /// A single-value option given twice takes the last value, as in GNU tools (a script can append to a
    /// command line from an alias or a config file).
    @Test func theLastValueOfARepeatedOptionWins() throws {
        let parsed = try parse(tokenize(["a", "--out", "x", "--jobs", "2", "--out=y", "-j", "3"]), for: sample)
        #expect(parsed.value(.out) == "y")
        #expect(try parsed.integer(.jobs, in: 1...64) == 3)
    }

    @Test(arguments: [
        (["a", "--frob"], UsageError.unknownOption("--frob", command: "fix", suggestion: nil)),
        (["a", "--jsn"], .unknownOption("--jsn", command: "fix", suggestion: "--json")),
        (["a", "--out"], .missingValue(option: "out", placeholder: "DIR")),
        (["a", "--json=yes"], .unexpectedValue(option: "json")),
        (["--json"], .missingArgument(command: "fix", name: "PATH")),
        (["a", "-z"], .unknownOption("-z", command: "fix", suggestion: nil)),
    ])
    func rejectsBadCommandLines(arguments: [String], expected: UsageError) {
        #expect(throws: expected) { try parse(tokenize(arguments), for: sample) }
    }

    @Test func integerAndChoiceValidation() throws {
        let parsed = try parse(tokenize(["a", "--jobs", "0"]), for: sample)
        #expect(throws: UsageError.invalidValue(option: "jobs", value: "0", expected: "a whole number from 1 to 64")) {
            try parsed.integer(.jobs, in: 1...64)
        }
        #expect(try parse(tokenize(["a", "-j", "3"]), for: sample).integer(.jobs, in: 1...64) == 3)
    }

    @Test func usageErrorsPrintOneLineAndExitTwo() {
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["fix", "a", "--frob"], io: io, table: [sample]) == .usage)
        #expect(output.stderr == "subfix: error: unknown option '--frob' for 'fix'\n")
        #expect(output.stdout.isEmpty)

        let (io2, output2) = CommandIO.capturing()
        #expect(SubfixCLI.run(["fx"], io: io2, table: [sample]) == .usage)
        #expect(output2.stderr == "subfix: error: unknown command 'fx' (did you mean 'fix'?)\n")
    }

    @Test func helpOnEveryCommandAndGlobally() {
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["fix", "--help"], io: io, table: [sample]) == .success)
        #expect(output.stdout.hasPrefix("usage: subfix fix PATH... [options]\n"))
        #expect(output.stdout.contains("--also NAME"))
        #expect(output.stdout.contains("(repeatable)"))

        let (io2, output2) = CommandIO.capturing()
        #expect(SubfixCLI.run(["--help"], io: io2, table: [sample]) == .success)
        #expect(output2.stdout.contains("  fix "))
    }

    @Test func everyRealCommandHasHelp() {
        for spec in commandTable {
            let (io, output) = CommandIO.capturing()
            #expect(SubfixCLI.run([spec.name, "--help"], io: io) == .success)
            #expect(output.stdout.hasPrefix("usage: subfix \(spec.name)"))
        }
    }

    @Test func runsTheCommand() {
        let (io, output) = CommandIO.capturing()
        #expect(SubfixCLI.run(["fix", "x", "--also", "A", "--json"], io: io, table: [sample]) == .success)
        #expect(output.stdout == "paths=[\"x\"] also=[\"A\"] json=true\n")
    }

    @Test func nearMissSuggestions() {
        #expect(nearestCandidate(to: "exract", in: ["extract", "fix", "probe"]) == "extract")
        #expect(nearestCandidate(to: "zzzzzz", in: ["extract", "fix"]) == nil)
    }
}
