import Foundation
import Testing

@testable import subfix

/// The end-to-end tier of installing: `Scripts/install-tree.sh` (what `make install` and `make uninstall` run)
/// and `Scripts/make-deb.sh` (`make deb`) with the debug binary (the layout is the same as a release build's),
/// then the installed binary run from another folder, as a user runs it.
@Suite struct InstallTreeTests {
    static let script = InstallSupport.checkout.appendingPathComponent("Scripts/install-tree.sh").path
    static let subtitle = "1\n00:00:01,000 --> 00:00:02,000\n<font face=\"SimHei\">你好</font>\n"
    static let noFaceWarning =
        "subfix: warning: no Noto Sans CJK (SC, TC, JP or KR) or Source Han Sans face is available here (the bundled"
        + " font was not found: see SUBFIX_FONTS_DIR in subfix(1)): the names written will not resolve on this"
        + " machine unless a --fonts-dir font covers the text\n"

    /// `make install DESTDIR=... PREFIX=/usr/local`, the installed binary finding its font from `/`, then
    /// `make uninstall` leaving no file behind.
    @Test func installRunAndUninstall() throws {
        let folder = try InstallSupport.folder("install")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destdir = folder.appendingPathComponent("dest").path
        let binary = SubfixBinary.executable.path
        for _ in 0..<2 {  // installing again over an install is fine
            let install = try InstallSupport.run([Self.script, "install", binary, destdir, "/usr/local"])
            #expect(install.status == 0, "\(install.stderr)")
        }
        let root = destdir + "/usr/local"
        var expected = [
            "bin/subfix", "share/subfix/fonts/NotoSansCJKsc-Subset.otf", "share/subfix/fonts/LICENSE",
            "share/man/man1/subfix.1", "share/bash-completion/completions/subfix", "share/zsh/site-functions/_subfix",
            "share/fish/vendor_completions.d/subfix.fish",
        ]
        expected += commandTable.map { "share/man/man1/subfix-\($0.name).1" }
        #expect(try Self.files(under: root) == expected.sorted())
        #expect(
            try String(contentsOfFile: root + "/share/man/man1/subfix-fix.1", encoding: .utf8)
                == (try GeneratedDocsTests.generated(["man", "fix"])))

        let fontconfig = try InstallSupport.emptyFontconfig(in: folder)
        let fonts = try InstallSupport.run(
            [root + "/bin/subfix", "fonts", "--json"], environment: ["FONTCONFIG_FILE": fontconfig])
        #expect(fonts.status == 0, "\(fonts.stderr)")
        #expect(fonts.stdout.contains("\"file\":\"\(root)/share/subfix/fonts/NotoSansCJKsc-Subset.otf\""))
        try Data(Self.subtitle.utf8).write(to: folder.appendingPathComponent("a.srt"))
        let fix = try InstallSupport.run(
            [root + "/bin/subfix", "fix", "a.srt", "--dry-run"], in: folder.path,
            environment: ["FONTCONFIG_FILE": fontconfig])
        #expect(fix.status == 0)
        #expect(fix.stderr.isEmpty)
        #expect(fix.stdout.contains("SimHei -> Noto Sans CJK SC"))

        let uninstall = try InstallSupport.run([Self.script, "uninstall", destdir, "/usr/local"])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(try Self.files(under: root).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: root + "/share/subfix"))
    }

    @Test func refusesBadArguments() throws {
        let relative = try InstallSupport.run([Self.script, "install", SubfixBinary.executable.path, "", "usr/local"])
        #expect(relative.status == 2)
        #expect(relative.stderr == "install: PREFIX must be an absolute path, not 'usr/local'\n")
        let missing = try InstallSupport.run([Self.script, "install", "/nonexistent/subfix", "/tmp/x", "/usr"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "install: /nonexistent/subfix: no such executable (build it first)\n")
        let usage = try InstallSupport.run([Self.script, "remove"])
        #expect(usage.status == 2)
    }

    /// A binary copied on its own has no bundled font: on a machine without CJK fonts, `fix` says on every run
    /// that the name it writes will not resolve, and so does `--font NAME`; SUBFIX_FONTS_DIR brings the font
    /// back.
    @Test func aCopiedBinaryWithoutItsFontWarns() throws {
        let folder = try InstallSupport.folder("copied")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let copy = bin.appendingPathComponent("subfix").path
        try FileManager.default.copyItem(atPath: SubfixBinary.executable.path, toPath: copy)
        try Data(Self.subtitle.utf8).write(to: folder.appendingPathComponent("a.srt"))
        let fontconfig = try InstallSupport.emptyFontconfig(in: folder)
        func fix(_ binary: String, _ extra: [String] = [], environment: [String: String] = [:]) throws
            -> InstallSupport.Output
        {
            var environment = environment
            environment["FONTCONFIG_FILE"] = fontconfig
            return try InstallSupport.run(
                [binary, "fix", "a.srt", "--dry-run"] + extra, in: folder.path, environment: environment)
        }
        for _ in 0..<2 {  // every run, not once
            let run = try fix(copy)
            #expect(run.status == 0)
            #expect(run.stderr == Self.noFaceWarning)
            #expect(run.stdout.contains("Noto Sans CJK SC is not available here"))
        }
        let named = try fix(copy, ["--font", "Nothing Here"])
        #expect(
            named.stderr
                == "subfix: warning: no font named 'Nothing Here' is available here: the name written will not resolve"
                + " on this machine (players need it installed, or use --embed with a face that is)\n")
        let overridden = try fix(
            copy, environment: ["SUBFIX_FONTS_DIR": InstallSupport.checkout.appendingPathComponent("Fonts").path])
        #expect(overridden.stderr.isEmpty)
        let built = try fix(SubfixBinary.executable.path)
        #expect(built.stderr.isEmpty)
        // With --no-system-fonts the fonts are left out on purpose: no warning (each reference's line says the
        // face is not available).
        let sandboxed = try fix(SubfixBinary.executable.path, ["--no-system-fonts"])
        #expect(sandboxed.stderr.isEmpty)
        #expect(sandboxed.stdout.contains("Noto Sans CJK SC is not available here"))
    }

    /// `make deb`'s script: the package holds the tree, a copyright file and Depends that name the linked and the
    /// dlopened libraries, each satisfied here (Debian 12); unpacked into a temporary root, its binary runs from
    /// another folder, shows --help and finds its font. Without `--allow-unpackaged-libs` a binary that links
    /// the toolchain's Swift runtime (this debug build) is refused: `make deb` links it statically.
    @Test func debianPackage() throws {
        let folder = try InstallSupport.folder("deb")
        defer { try? FileManager.default.removeItem(at: folder) }
        let makeDeb = InstallSupport.checkout.appendingPathComponent("Scripts/make-deb.sh").path
        let out = folder.appendingPathComponent("out").path
        let strict = try InstallSupport.run([makeDeb, SubfixBinary.executable.path, out])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains(" links libraries no Debian package provides: "), "\(strict.stderr)")
        #expect(strict.stderr.contains("libswiftCore.so"), "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))

        let build = try InstallSupport.run(
            [makeDeb, SubfixBinary.executable.path, out, "--allow-unpackaged-libs"],
            environment: ["DEB_COMPRESSION": "gzip"])  // lintian counts an uncompressed package an error
        #expect(build.status == 0, "\(build.stderr)")
        let arch = try InstallSupport.run(["dpkg", "--print-architecture"]).stdout.trimmingCharacters(in: .newlines)
        let deb = out + "/subfix_\(SubfixCLI.version)_\(arch).deb"
        #expect(FileManager.default.fileExists(atPath: deb))

        let depends = try InstallSupport.run(["dpkg-deb", "-f", deb, "Depends"]).stdout
        let packages = depends.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").first.map(String.init) ?? ""
        }
        for package in [
            "libc6", "libass9", "libfreetype6", "libfontconfig1", "libharfbuzz-subset0", "libsqlite3-0",
            "libuchardet0", "libavformat59", "libavcodec59", "libavutil57", "libswscale6", "libpq5",
        ] {
            #expect(packages.contains(package), "Depends: \(depends)")
        }
        // Each dependency is satisfied by what dpkg has installed here, as apt would check it.
        let satisfied = try InstallSupport.run(
            [
                "bash", "-c",
                """
                set -e
                IFS=',' read -ra deps <<< "$1"
                for dep in "${deps[@]}"; do
                    read -r name op version <<< "$(echo "$dep" | tr -d '()')"
                    installed="$(dpkg-query -W -f='${Version}' "$name")"
                    [ -z "$op" ] || dpkg --compare-versions "$installed" "${op/>=/ge}" "$version" || { echo "$dep"; exit 1; }
                done
                """,
                "-", depends,
            ])
        #expect(satisfied.status == 0, "unsatisfied: \(satisfied.stdout)\(satisfied.stderr)")

        let contents = try InstallSupport.run(["dpkg-deb", "-c", deb]).stdout
        #expect(contents.split(separator: "\n").allSatisfy { $0.contains(" root/root ") })
        for path in [
            "./usr/bin/subfix", "./usr/share/subfix/fonts/NotoSansCJKsc-Subset.otf", "./usr/share/doc/subfix/copyright",
            "./usr/share/man/man1/subfix.1.gz", "./usr/share/man/man1/subfix-fix.1.gz",
            "./usr/share/bash-completion/completions/subfix", "./usr/share/zsh/vendor-completions/_subfix",
            "./usr/share/fish/vendor_completions.d/subfix.fish", "./usr/share/doc/subfix/changelog.gz",
        ] {
            #expect(contents.contains(" " + path + "\n"), "\(path)")
        }
        // Debian's zsh searches vendor-completions, not site-functions.
        #expect(!contents.contains("site-functions"))

        // lintian: no error or warning (the debug build's RUNPATH to the toolchain aside, which a release build
        // has not), as `make deb-check` asks of the release package.
        let lintian = try InstallSupport.run(
            [InstallSupport.checkout.appendingPathComponent("Scripts/lint-deb.sh").path, deb, "--debug-build"])
        #expect(lintian.status == 0, "\(lintian.stdout)\(lintian.stderr)")
        #expect(
            lintian.stdout.hasSuffix(
                "lint-deb: subfix_\(SubfixCLI.version)_\(arch).deb: no lintian errors or warnings\n"))
        let maintainer = try InstallSupport.run(["dpkg-deb", "-f", deb, "Maintainer"]).stdout
        #expect(!maintainer.contains("localhost"), "\(maintainer)")
        #expect(try InstallSupport.run(["dpkg-deb", "-f", deb, "Recommends"]).stdout == "fonts-noto-cjk\n")

        let root = folder.appendingPathComponent("root").path
        let extract = try InstallSupport.run(["dpkg-deb", "-x", deb, root])
        #expect(extract.status == 0, "\(extract.stderr)")
        let help = try InstallSupport.run([root + "/usr/bin/subfix", "--help"], in: folder.path)
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: subfix COMMAND [options]\n"))
        let fonts = try InstallSupport.run(
            [root + "/usr/bin/subfix", "fonts", "--json"], in: "/",
            environment: ["FONTCONFIG_FILE": try InstallSupport.emptyFontconfig(in: folder)])
        #expect(fonts.stdout.contains("\"file\":\"\(root)/usr/share/subfix/fonts/NotoSansCJKsc-Subset.otf\""))
        let copyright = try String(contentsOfFile: root + "/usr/share/doc/subfix/copyright", encoding: .utf8)
        #expect(copyright.contains("License: OFL-1.1"))
        let man = try InstallSupport.run(["man", "-l", root + "/usr/share/man/man1/subfix-fix.1.gz"])
        #expect(man.stdout.contains("--embed"))
        let changelog = try InstallSupport.run(["zcat", root + "/usr/share/doc/subfix/changelog.gz"]).stdout
        #expect(changelog.hasPrefix("subfix (\(SubfixCLI.version)) unstable; urgency=medium\n"), "\(changelog)")

        // The packaged binary is stripped; its debug symbols are the .debug file beside the package, which the
        // binary names (.gnu_debuglink).
        let sections = try InstallSupport.run(["readelf", "-SW", root + "/usr/bin/subfix"]).stdout
        #expect(!sections.contains(".debug_info"))
        #expect(!sections.contains(".symtab"))
        #expect(sections.contains(".gnu_debuglink"))
        let debug = out + "/subfix_\(SubfixCLI.version)_\(arch).debug"
        #expect(try InstallSupport.run(["readelf", "-SW", debug]).stdout.contains(".debug_info"))
        let packaged = try FileManager.default.attributesOfItem(atPath: root + "/usr/bin/subfix")[.size] as? Int ?? 0
        let built = try FileManager.default.attributesOfItem(atPath: SubfixBinary.executable.path)[.size] as? Int ?? 0
        #expect(packaged > 0 && packaged < built)
    }

    /// The regular files under `root`, relative to it, sorted.
    static func files(under root: String) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(relative)
            }
        }
        return files.sorted()
    }
}
