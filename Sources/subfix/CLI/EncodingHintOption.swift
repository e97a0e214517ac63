import SubCore

/// `--encoding-hint`, shared by `subfix fix` and `subfix index` so both read files the same way: the option's
/// row and its parsing into an `EncodingHint`.
enum EncodingHintOption {
    static let row = OptionSpec.value(
        .encodingHint, "LANG|ENCODING",
        "For files that are not UTF-8: a language breaks ties between encodings (zh-Hans, zh-Hant, ja, ko, ru, ...);"
            + " an encoding decides (gbk, big5, sjis, euc-kr, cp1251, iso-8859-2, koi8-r, ...).")

    /// The hint given, nil without the option; a label that is neither a language nor an encoding is a usage
    /// error.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> EncodingHint? {
        guard let label = arguments.value(row.key) else { return nil }
        guard let hint = EncodingHint(label: label) else {
            throw .invalidValue(
                option: row.name, value: label,
                expected: "a language such as zh-Hans, zh-Hant, ja, ko or an encoding such as gbk, big5, sjis, cp1252")
        }
        return hint
    }
}
