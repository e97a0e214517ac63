import Foundation

/// The dialogue index's tokens and queries in PostgreSQL's text-search types, from the same ``DialogueSegmenter``
/// as the SQLite index, so that both backends find the same lines.
///
/// A line becomes a `tsvector` of its tokens with positions (for the `simple` configuration, lexemes are stored
/// as given); two CJK characters that are not adjacent in the text get a gap of one position between them, as
/// the FTS5 tokenizer's boundary token, so that the phrase `'你' <-> '好'` never matches `你，好`.
package enum PostgresTextSearch {
    /// The longest lexeme PostgreSQL stores is 2,047 bytes; longer words are cut (in documents and queries alike).
    static let maximumLexemeBytes = 2000
    /// PostgreSQL keeps positions up to 16,383; later tokens share that position.
    static let maximumPosition = 16_383

    /// A token with its position in the `tsvector` and its byte range in the text.
    struct PositionedToken {
        var text: String
        var position: Int
        var range: Range<Int>
    }

    /// The tokens of `text` with their positions, as ``vector(of:segmenter:)`` stores them.
    static func positionedTokens(of text: String, segmenter: DialogueSegmenter) -> [PositionedToken] {
        var tokens: [PositionedToken] = []
        var position = 0
        var previousEnd = -1
        var previousIsCJK = false
        var utf8 = Array(text.utf8)
        utf8.withUnsafeMutableBufferPointer { buffer in
            segmenter.segmentMarkingIdeographs(UnsafeBufferPointer(buffer)) { token, range, isCJK in
                if isCJK, previousIsCJK, range.lowerBound > previousEnd { position += 1 }
                previousIsCJK = isCJK
                previousEnd = range.upperBound
                position += 1
                let lexeme = lexemeText(String(decoding: token, as: UTF8.self))
                guard !lexeme.isEmpty else { return }
                tokens.append(PositionedToken(text: lexeme, position: position, range: range))
            }
        }
        return tokens
    }

    /// A token cut to the longest lexeme PostgreSQL accepts, at a character boundary, without NUL.
    static func lexemeText(_ token: String) -> String {
        var text = token.replacingOccurrences(of: "\u{0}", with: "")
        while text.utf8.count > maximumLexemeBytes { text.removeLast() }
        return text
    }

    /// `'lexeme'` quoted for `tsvector`/`tsquery` input: quotes and backslashes doubled.
    static func quoted(_ lexeme: String) -> String {
        "'" + lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The `tsvector` input text of a line (`'你':1 '好':2`), to be bound as a parameter and cast `::tsvector`.
    package static func vector(of text: String, segmenter: DialogueSegmenter) -> String {
        var positions: [String: [Int]] = [:]
        var order: [String] = []
        for token in positionedTokens(of: text, segmenter: segmenter) {
            if positions[token.text] == nil { order.append(token.text) }
            positions[token.text, default: []].append(min(token.position, maximumPosition))
        }
        return order.map { lexeme in
            let list = positions[lexeme] ?? []
            var seen = Set<Int>()
            let unique = list.filter { seen.insert($0).inserted }.prefix(256)
            return quoted(lexeme) + ":" + unique.map(String.init).joined(separator: ",")
        }.joined(separator: " ")
    }

    /// A phrase of a query: its tokens in order, and whether its one Latin token is a prefix.
    package struct Phrase: Sendable, Equatable {
        /// The normalized tokens.
        package var tokens: [String]
        /// `word*`: the one token matches the tokens that start with it.
        package var isPrefix: Bool

        var tsquery: String {
            let terms = tokens.map { quoted($0) + (isPrefix ? ":*" : "") }
            return terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " <-> ") + ")"
        }
    }

    /// A user query as a `tsquery` with the same meaning as ``DialogueQuery``'s FTS5 expression.
    package struct Query: Sendable, Equatable {
        /// The `tsquery` input text, to be bound as a parameter and cast `::tsquery`.
        package let tsquery: String
        /// The phrases to highlight (the ones not excluded).
        package let phrases: [Phrase]
        /// The query as parsed for SQLite, for its terms.
        let dialogueQuery: DialogueQuery

        /// Parses `text` as ``DialogueQuery`` does, throwing the same errors.
        package init(_ text: String, segmenter: DialogueSegmenter) throws(DialogueQueryError) {
            dialogueQuery = try DialogueQuery(text, segmenter: segmenter)
            var alternatives: [[Phrase]] = [[]]
            var excluded: [Phrase] = []
            for word in DialogueQuery.lex(text) {
                if word.isOperatorOR {
                    if !(alternatives.last?.isEmpty ?? true) { alternatives.append([]) }
                    continue
                }
                let tokens = segmenter.tokens(in: word.text).map { PostgresTextSearch.lexemeText($0.text) }
                    .filter { !$0.isEmpty }
                guard !tokens.isEmpty else { continue }
                let isPrefix =
                    word.isPrefix && tokens.count == 1 && tokens[0].unicodeScalars.allSatisfy { $0.isASCII }
                let phrase = Phrase(tokens: tokens, isPrefix: isPrefix)
                if word.isExcluded {
                    excluded.append(phrase)
                } else {
                    alternatives[alternatives.count - 1].append(phrase)
                }
            }
            let groups = alternatives.filter { !$0.isEmpty }
            let conjunctions = groups.map { group in group.map(\.tsquery).joined(separator: " & ") }
            var expression =
                conjunctions.count == 1 ? conjunctions[0] : conjunctions.map { "(" + $0 + ")" }.joined(separator: " | ")
            for phrase in excluded {
                expression = "(" + expression + ") & !" + phrase.tsquery
            }
            tsquery = expression
            phrases = groups.flatMap { $0 }
        }
    }

    /// The byte ranges of `text` that the query's phrases match, merged and in order.
    static func matchedRanges(in text: String, query: Query, segmenter: DialogueSegmenter) -> [Range<Int>] {
        let tokens = positionedTokens(of: text, segmenter: segmenter)
        var ranges: [Range<Int>] = []
        for phrase in query.phrases where !phrase.tokens.isEmpty {
            let length = phrase.tokens.count
            guard tokens.count >= length else { continue }
            for start in 0...(tokens.count - length) {
                var matches = true
                for offset in 0..<length {
                    let token = tokens[start + offset]
                    let wanted = phrase.tokens[offset]
                    let same = phrase.isPrefix ? token.text.hasPrefix(wanted) : token.text == wanted
                    if !same || token.position != tokens[start].position + offset {
                        matches = false
                        break
                    }
                }
                if matches {
                    ranges.append(tokens[start].range.lowerBound..<tokens[start + length - 1].range.upperBound)
                }
            }
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// `text` cut into matched and unmatched runs (their concatenation is `text`).
    package static func segments(of text: String, query: Query, segmenter: DialogueSegmenter) -> [DialogueHit.Segment] {
        let bytes = Array(text.utf8)
        var segments: [DialogueHit.Segment] = []
        var position = 0
        for range in matchedRanges(in: text, query: query, segmenter: segmenter) {
            if range.lowerBound > position {
                segments.append(
                    .init(text: String(decoding: bytes[position..<range.lowerBound], as: UTF8.self), isMatch: false))
            }
            segments.append(.init(text: String(decoding: bytes[range], as: UTF8.self), isMatch: true))
            position = range.upperBound
        }
        if position < bytes.count || segments.isEmpty {
            segments.append(.init(text: String(decoding: bytes[position...], as: UTF8.self), isMatch: false))
        }
        return segments
    }

    /// A short excerpt of at most `tokens` tokens around the first match, matches in `[...]`, cuts shown as `…`
    /// (as FTS5's `snippet(…, '[', ']', '…', 24)`).
    package static func snippet(of text: String, query: Query, segmenter: DialogueSegmenter, tokens limit: Int = 24)
        -> String
    {
        let tokens = positionedTokens(of: text, segmenter: segmenter)
        let ranges = matchedRanges(in: text, query: query, segmenter: segmenter)
        let bytes = Array(text.utf8)
        var start = 0
        var end = bytes.count
        if tokens.count > limit {
            let firstMatch = ranges.first?.lowerBound ?? 0
            let firstToken = tokens.firstIndex { $0.range.upperBound > firstMatch } ?? 0
            let from = max(0, min(firstToken - limit / 4, tokens.count - limit))
            start = from == 0 ? 0 : tokens[from].range.lowerBound
            end = from + limit >= tokens.count ? bytes.count : tokens[from + limit - 1].range.upperBound
        }
        var result = start > 0 ? "…" : ""
        var position = start
        for range in ranges where range.upperBound > start && range.lowerBound < end {
            let lower = max(range.lowerBound, start)
            let upper = min(range.upperBound, end)
            result += String(decoding: bytes[position..<lower], as: UTF8.self)
            result += "[" + String(decoding: bytes[lower..<upper], as: UTF8.self) + "]"
            position = upper
        }
        result += String(decoding: bytes[position..<end], as: UTF8.self)
        if end < bytes.count { result += "…" }
        return result
    }

    /// The codes a `--lang` value stands for (`ja` and `jpn`), as the SQLite search compares them.
    package static func languageCodes(_ language: String) -> [String] {
        LibraryDatabase.languageAliases(language)
    }
}

extension DialogueHit {
    /// A hit read from another backend than the SQLite library (PostgreSQL).
    package static func make(
        line: DialogueLineRecord, path: String, source: SubtitleSourceRecord, segments: [Segment], snippet: String,
        rank: Double, before: [DialogueLineRecord] = [], after: [DialogueLineRecord] = []
    ) -> DialogueHit {
        DialogueHit(
            line: line, path: path, source: source, segments: segments, snippet: snippet, rank: rank, before: before,
            after: after)
    }
}
