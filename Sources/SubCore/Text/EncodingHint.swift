/// What a user says about the encoding of files that are not Unicode: either their language, which breaks ties
/// between encodings that decode the bytes equally well, or the exact encoding, which decides.
///
///     EncodingHint(label: "zh-Hant")   // .language(.traditionalChinese): Big5 wins a tie with GB18030
///     EncodingHint(label: "gbk")       // .exact(.gbk): the file is GBK, no detection
public enum EncodingHint: Sendable, Equatable {
    /// The language of the text: among close candidates, the one whose text reads as this language wins.
    case language(TextLanguage)
    /// The encoding of the file: it is decoded as this, and fails if it is not valid in it.
    case exact(TextEncoding)

    /// The hint for a label: a language (`zh-Hans`, `zh-Hant`, `ja`, `ko`, `ru`, `pl`, `el`, `tr`, ...) or an
    /// encoding name (`gbk`, `big5`, `sjis`, `euc-kr`, `cp1251`, `iso-8859-2`, `koi8-r`, ...); nil for neither.
    public init?(label: String) {
        if let language = TextLanguage(label: label) {
            self = .language(language)
        } else if let encoding = TextEncoding(exactName: label) {
            self = .exact(encoding)
        } else {
            return nil
        }
    }
}
