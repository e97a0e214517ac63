import Foundation
import Testing

/// The README's Jellyfin recipe, as written there: a default `fix --embed` of Samples/yahei-styles.ass, then
/// `check --no-system-fonts` with `--default-font` standing for the player's Latin font, which exits 0; without
/// it, the Latin-only credits line that keeps Arial under `--policy text` is reported and the check exits 1.
@Suite struct JellyfinRecipeTests {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: dejaVu)))
    func checkAfterADefaultFixExitsZeroWithThePlayersLatinFont() throws {
        let folder = try SubfixBinary.folder("jellyfin")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(
            atPath: SubfixBinary.samples + "/yahei-styles.ass", toPath: folder + "/yahei-styles.ass")
        let fix = try SubfixBinary.run(["fix", "yahei-styles.ass", "--out", "subs", "--embed", "-q"], in: folder)
        #expect(fix.status == 0, "\(fix.stderr)")
        let recipe = try SubfixBinary.run(
            ["check", "subs", "--no-system-fonts", "--default-font", Self.dejaVu], in: folder)
        #expect(recipe.status == 0, "\(recipe.stdout)\(recipe.stderr)")
        #expect(recipe.stdout == "subs/yahei-styles.ass: 8 events, all characters covered\n")
        let bare = try SubfixBinary.run(["check", "subs", "--no-system-fonts", "-q"], in: folder)
        #expect(bare.status == 1)
        #expect(bare.stdout.contains(": font 'Arial' (not found, nothing to fall back to) lacks "))
    }
}
