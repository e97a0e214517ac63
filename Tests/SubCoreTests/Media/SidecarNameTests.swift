import Foundation
import SubCore
import Testing

/// A text subtitle stream; `index` is the stream index, the subtitle index is `index - 2`.
private func subtitle(
    _ index: Int, _ language: String?, title: String? = nil, isDefault: Bool = false, isForced: Bool = false,
    isHearingImpaired: Bool = false, codec: String = "ass"
) -> MediaStream {
    MediaStream(
        index: index, kind: .subtitle, codec: codec, subtitleEncoding: .text, language: language, title: title,
        isDefault: isDefault, isForced: isForced, subtitleIndex: index - 2, playerIndex: index - 1,
        isHearingImpaired: isHearingImpaired)
}

/// `SidecarNamer` and `SidecarName`: the names media servers read, kept apart, and read back.
@Suite struct SidecarNameTests {
    static let tracks = [
        subtitle(2, "chi", title: "简体中文", isForced: true),
        subtitle(3, "jpn", isDefault: true),
        subtitle(4, "chi", isHearingImpaired: true, codec: "subrip"),
        subtitle(5, "zh-Hant"),
        subtitle(6, "ger", isDefault: true, isForced: true),
        subtitle(7, "pt-BR"),
        subtitle(8, nil, isForced: true),
    ]

    private func names(_ naming: SidecarNaming, _ streams: [MediaStream] = tracks) -> [String] {
        let namer = SidecarNamer(naming: naming, base: "Movie", streams: streams)
        return streams.map { namer.name(for: $0, format: .automatic(for: $0)).fileName }
    }

    @Test func jellyfinNamesCarryLanguageScriptAndEveryFlag() {
        #expect(
            names(.jellyfin) == [
                "Movie.zh-Hans.zh.forced.ass", "Movie.ja.default.ass", "Movie.zh.sdh.srt", "Movie.zh-Hant.zh.ass",
                "Movie.de.default.forced.ass", "Movie.pt-BR.ass", "Movie.forced.ass",
            ])
    }

    @Test func plexNamesCarryForcedAndSDHButNoDefault() {
        #expect(
            names(.plex) == [
                "Movie.zh-Hans.zh.forced.ass", "Movie.ja.ass", "Movie.zh.sdh.srt", "Movie.zh-Hant.zh.ass",
                "Movie.de.forced.ass", "Movie.pt-BR.ass", "Movie.forced.ass",
            ])
    }

    @Test func subfixNamesStayAsTheyWere() {
        #expect(
            names(.subfix) == [
                "Movie.0.chi.ass", "Movie.1.jpn.ass", "Movie.2.chi.srt", "Movie.3.zh-Hant.ass", "Movie.4.ger.ass",
                "Movie.5.pt-BR.ass", "Movie.6.ass",
            ])
    }

    /// Two tracks that would share a name get their titles as labels; when titles cannot tell them apart (missing,
    /// equal, or words a server would read as a flag or a language), their track numbers.
    @Test func tracksThatWouldShareANameAreKeptApart() {
        let byTitle = [subtitle(2, "jpn", title: "Dialogue"), subtitle(3, "jpn", title: "Signs & Songs")]
        #expect(names(.jellyfin, byTitle) == ["Movie.Dialogue.ja.ass", "Movie.Signs & Songs.ja.ass"])
        let untitled = [
            subtitle(2, "eng"), subtitle(3, "eng", codec: "subrip"), subtitle(4, "eng", title: "Commentary"),
        ]
        #expect(names(.plex, untitled) == ["Movie.track1.en.ass", "Movie.track2.en.srt", "Movie.track3.en.ass"])
        let sameTitle = [subtitle(2, "chi", title: "简体"), subtitle(3, "chi", title: "简体")]
        #expect(names(.jellyfin, sameTitle) == ["Movie.track1.zh-Hans.zh.ass", "Movie.track2.zh-Hans.zh.ass"])
        for hostile in ["Forced Signs", "Default", "en", "SDH", ".", "../", "\u{1B}"] {
            let pair = [subtitle(2, "spa", title: hostile), subtitle(3, "spa", title: "Full")]
            #expect(names(.jellyfin, pair) == ["Movie.track1.es.ass", "Movie.track2.es.ass"], "\(hostile)")
        }
        // Tracks that differ in a flag do not collide, and a track keeps its name whatever else is extracted.
        let flagged = [subtitle(2, "jpn"), subtitle(3, "jpn", isForced: true)]
        #expect(names(.jellyfin, flagged) == ["Movie.ja.ass", "Movie.ja.forced.ass"])
    }

    /// Titles and tags come from the file: whatever they hold, a name is one plain path component.
    @Test(arguments: [
        "../../etc/passwd", "a/b\\c", "..", "title\u{0}with\u{7}controls", String(repeating: "長", count: 200),
        "x.y.z", " ", "",
    ])
    func hostileTitlesAndTagsNeverLeaveTheFolder(text: String) {
        let streams = [subtitle(2, text, title: text), subtitle(3, text, title: text + "2")]
        for naming in SidecarNaming.allCases {
            let namer = SidecarNamer(naming: naming, base: "Movie", streams: streams)
            let built = streams.map { namer.name(for: $0, format: .ass).fileName }
            #expect(Set(built).count == 2, "\(naming) \(built)")
            for name in built {
                #expect(!name.contains("/") && !name.contains("\\") && !name.contains("\u{0}"), "\(name)")
                #expect(name.hasPrefix("Movie.") && name.hasSuffix(".ass") && !name.contains(".."), "\(name)")
                #expect(name.utf8.count < 120, "\(name)")
            }
        }
    }

    /// What `SidecarName` writes it reads back: the language (the script where one is written) and the flags.
    @Test func namesReadBackToTheirParts() throws {
        for naming in SidecarNaming.allCases {
            let namer = SidecarNamer(naming: naming, base: "Movie", streams: Self.tracks)
            for stream in Self.tracks {
                let built = namer.name(for: stream, format: .ass)
                let read = try #require(SidecarName(fileName: "/some/folder/" + built.fileName))
                #expect(read.statedLanguage == built.statedLanguage, "\(built)")
                #expect(read.fileExtension == "ass")
                if naming != .subfix {
                    #expect(read.flags.isForced == built.flags.isForced, "\(built)")
                    #expect(read.flags.isHearingImpaired == built.flags.isHearingImpaired, "\(built)")
                    // Plex has no default flag: only Jellyfin's names carry it.
                    #expect(read.flags.isDefault == (naming == .jellyfin && built.flags.isDefault), "\(built)")
                } else {
                    #expect(read.subtitleIndex == stream.subtitleIndex, "\(built)")
                }
            }
        }
    }

    @Test(
        arguments: [
            ("movie.zh-Hans.srt", "zh-Hans"), ("movie.ja.ass", "ja"), ("movie.0.chi.ass", "chi"),
            ("Movie.zh-Hant.zh.forced.ass", "zh-Hant"), ("Movie.en.sdh.srt", "en"), ("Movie.hi.srt", "hi"),
            ("Movie.en.hi.srt", "en"), ("Movie.Signs.ja.default.forced.ass", "ja"),
        ] as [(String, String)])
    func readsTheLanguageOfNamesWrittenByHandToo(name: String, language: String) throws {
        #expect(try #require(SidecarName(fileName: name)).statedLanguage == language)
    }

    @Test(arguments: ["", ".", "movie", "movie.", "movie.srt", "movie.forced.srt", "a..b.ass", "movie.1080p.ass"])
    func namesWithoutALanguageHaveNone(name: String) {
        #expect(SidecarName(fileName: name)?.statedLanguage == nil)
    }

    /// `hi` alone is Hindi; after a language it is the hearing-impaired flag (as Jellyfin reads it).
    @Test func hiIsHindiUnlessALanguageComesBefore() throws {
        #expect(try #require(SidecarName(fileName: "Movie.hi.srt")).flags.isHearingImpaired == false)
        #expect(try #require(SidecarName(fileName: "Movie.en.hi.srt")).flags.isHearingImpaired == true)
    }

    /// The fixer's language tags from a file name see the script a server scheme writes before `zh`, and every
    /// language the name gives.
    @Test func fileNameTagsFindTheScriptBeforeZh() throws {
        let hant = try #require(LanguageTags(fileName: "Movie.zh-Hant.zh.forced.ass"))
        #expect(hant.variant == .traditionalChinese && hant.script == .chinese)
        let zh = try #require(LanguageTags(fileName: "Movie.zh.sdh.srt"))
        #expect(zh.chinese && zh.languages.isEmpty && zh.script == .chinese)
        #expect(try #require(LanguageTags(fileName: "movie.ja.zh.ass")).namesJapaneseAndChinese)
    }
}

/// The one table of language codes (issue 32): every code of a language, for the search's `--lang` and the tags.
@Suite struct ISO639Tests {
    @Test func codesOfALanguage() {
        #expect(ISO639.codes(of: "ja") == ["ja", "jpn"])
        #expect(ISO639.codes(of: "GER") == ["de", "deu", "ger"])
        #expect(ISO639.codes(of: "chi") == ["zh", "chi", "zho"])
        #expect(ISO639.codes(of: "yue") == ["yue"])
        #expect(ISO639.codes(of: "x\u{1B}") == ["x\u{1B}"])
        #expect(TextLanguage(label: "jpn") == .japanese)
        #expect(TextLanguage(label: "chi") == .simplifiedChinese)
        #expect(CJKLanguage.hint(from: "zho") == .chinese)
    }
}
