/// ISO 639-2 language codes (as Matroska's `language` element and ffmpeg's `language` tag hold them) and their
/// ISO 639-1 two-letter forms, for the names media servers read (`SidecarNaming`). Both the bibliographic (`ger`,
/// `chi`, `fre`) and the terminological (`deu`, `zho`, `fra`) codes are listed; codes with no two-letter form
/// (`yue`, `fil`) are not. The one table of language codes: sidecar names, the search's `--lang`, encoding
/// detection's languages and the CJK tags all read codes through it.
public enum ISO639 {
    /// The two-letter code for a three-letter one (any case); the two-letter code itself for a known one; nil
    /// otherwise.
    public static func alpha2(_ code: String) -> String? {
        let code = code.lowercased()
        if code.count == 2 { return alpha2Codes.contains(code) ? code : nil }
        return table[code]
    }

    /// Every code of the language `code` names, lowercased: its two-letter code, then its three-letter codes
    /// in order (`ja` → `ja`, `jpn`; `ger` → `de`, `deu`, `ger`); `[code]` for a code the table does not know.
    public static func codes(of code: String) -> [String] {
        guard let two = alpha2(code) else { return [code.lowercased()] }
        return [two] + table.filter { $0.value == two }.map(\.key).sorted()
    }

    private static let alpha2Codes = Set(table.values)

    private static let table: [String: String] = [
        "afr": "af", "alb": "sq", "sqi": "sq", "amh": "am", "ara": "ar", "arm": "hy", "hye": "hy", "aze": "az",
        "baq": "eu", "eus": "eu", "bel": "be", "ben": "bn", "bos": "bs", "bre": "br", "bul": "bg", "bur": "my",
        "mya": "my", "cat": "ca", "chi": "zh", "zho": "zh", "cze": "cs", "ces": "cs", "dan": "da", "dut": "nl",
        "nld": "nl", "eng": "en", "epo": "eo", "est": "et", "fao": "fo", "fin": "fi", "fre": "fr", "fra": "fr",
        "geo": "ka", "kat": "ka", "ger": "de", "deu": "de", "gla": "gd", "gle": "ga", "glg": "gl", "gre": "el",
        "ell": "el", "guj": "gu", "hat": "ht", "hau": "ha", "heb": "he", "hin": "hi", "hrv": "hr", "hun": "hu",
        "ice": "is", "isl": "is", "ind": "id", "ita": "it", "jav": "jv", "jpn": "ja", "kan": "kn", "kaz": "kk",
        "khm": "km", "kir": "ky", "kor": "ko", "kur": "ku", "lao": "lo", "lat": "la", "lav": "lv", "lit": "lt",
        "ltz": "lb", "mac": "mk", "mkd": "mk", "mal": "ml", "mao": "mi", "mri": "mi", "mar": "mr", "may": "ms",
        "msa": "ms", "mlt": "mt", "mon": "mn", "nep": "ne", "nor": "no", "nob": "nb", "nno": "nn", "ori": "or",
        "pan": "pa", "per": "fa", "fas": "fa", "pol": "pl", "por": "pt", "pus": "ps", "que": "qu", "rum": "ro",
        "ron": "ro", "rus": "ru", "san": "sa", "sin": "si", "slo": "sk", "slk": "sk", "slv": "sl", "som": "so",
        "spa": "es", "srp": "sr", "sun": "su", "swa": "sw", "swe": "sv", "tam": "ta", "tat": "tt", "tel": "te",
        "tgk": "tg", "tgl": "tl", "tha": "th", "tib": "bo", "bod": "bo", "tur": "tr", "tuk": "tk", "uig": "ug",
        "ukr": "uk", "urd": "ur", "uzb": "uz", "vie": "vi", "wel": "cy", "cym": "cy", "yid": "yi", "yor": "yo",
        "zul": "zu",
    ]
}
