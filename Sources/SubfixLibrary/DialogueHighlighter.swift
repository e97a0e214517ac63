/// Marks a hit's matches and cuts its snippet in Swift, the way FTS5's `highlight()` and `snippet()` do (SQLite
/// 3.40's `fts5_aux.c`: the same phrase instances, coalescing, best-window scoring and sentence bonus), from the
/// line's text and the query's phrases.
///
/// FTS5 computes them for a row of a `MATCH` query only: asking for the 20 best lines one by one meant 20 more
/// full-text queries, each seeking every phrase's doclist in every segment (8 of the 12 ms of a two-character
/// query on a million lines). Here they cost a tokenization of the line.
///
///     let marked = DialogueHighlighter(phrases: query.phrases).highlight("我说你好吗", open: "[", close: "]")
///     // "我说[你好]吗"
struct DialogueHighlighter {
    /// A phrase as the table's tokenizer reads it: its tokens, the last one a prefix when `isPrefix`.
    struct Phrase {
        var tokens: [[UInt8]]
        var isPrefix: Bool
        var alternative: Int
    }

    /// A token of the document: its bytes and the byte range of the text it stands for.
    private struct Token {
        var bytes: [UInt8]
        var range: Range<Int>
    }

    /// One phrase found in the document: which phrase, at which token position.
    private struct Instance {
        var phrase: Int
        var position: Int
    }

    let segmenter: DialogueSegmenter
    let phrases: [Phrase]

    /// A highlighter for `phrases` (the query's, in order), tokenized with the table's segmenter.
    init(phrases: [DialogueQuery.Phrase], segmenter: DialogueSegmenter) {
        self.segmenter = segmenter
        self.phrases = phrases.map { phrase in
            // FTS5 gives the phrase's text to the table's tokenizer again (in query mode, without boundaries).
            var tokens: [[UInt8]] = []
            var text = Array(phrase.tokens.joined(separator: " ").utf8)
            text.withUnsafeMutableBufferPointer { buffer in
                segmenter.segment(UnsafeBufferPointer(buffer)) { token, _ in tokens.append(Array(token)) }
            }
            return Phrase(tokens: tokens, isPrefix: phrase.isPrefix, alternative: phrase.alternative)
        }
    }

    /// The document's tokens as ``DialogueTokenizer`` gives them to FTS5 when indexing (boundary tokens included).
    private func documentTokens(_ text: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var previousEnd = -1
        var previousIsCJK = false
        text.withUnsafeBufferPointer { buffer in
            segmenter.segmentMarkingIdeographs(buffer) { token, range, isCJK in
                if isCJK, previousIsCJK, range.lowerBound > previousEnd {
                    tokens.append(Token(bytes: [DialogueTokenizer.boundary], range: previousEnd..<range.lowerBound))
                }
                previousIsCJK = isCJK
                previousEnd = range.upperBound
                tokens.append(Token(bytes: Array(token), range: range))
            }
        }
        return tokens
    }

    /// Every phrase instance, by position, then phrase (FTS5's `xInst` order). Like FTS5, the phrases of an `OR`
    /// alternative the line does not match as a whole (`你好 OR hello world` on a line without `hello`) are left
    /// out.
    private func instances(in tokens: [Token]) -> [Instance] {
        let found = allInstances(in: tokens)
        var present = Set<Int>()
        for instance in found { present.insert(instance.phrase) }
        var missing = Set<Int>()
        for (index, phrase) in phrases.enumerated() where !present.contains(index) {
            missing.insert(phrase.alternative)
        }
        guard !missing.isEmpty else { return found }
        return found.filter { !missing.contains(phrases[$0.phrase].alternative) }
    }

    /// Every instance of every phrase.
    private func allInstances(in tokens: [Token]) -> [Instance] {
        var found: [Instance] = []
        for (index, phrase) in phrases.enumerated() where !phrase.tokens.isEmpty {
            let size = phrase.tokens.count
            guard tokens.count >= size else { continue }
            for start in 0...(tokens.count - size) {
                var matches = true
                for offset in 0..<size {
                    let token = tokens[start + offset].bytes
                    let wanted = phrase.tokens[offset]
                    let isLast = offset == size - 1
                    if isLast && phrase.isPrefix ? !token.starts(with: wanted) : token != wanted {
                        matches = false
                        break
                    }
                }
                if matches { found.append(Instance(phrase: index, position: start)) }
            }
        }
        return found.sorted { $0.position != $1.position ? $0.position < $1.position : $0.phrase < $1.phrase }
    }

    /// Whether `text` holds every phrase of at least one alternative, as FTS5 would match the phrases with
    /// positions: a CJK phrase only where its characters are adjacent.
    func holdsAnAlternative(_ text: String) -> Bool {
        guard !phrases.isEmpty else { return false }
        let found = allInstances(in: documentTokens(Array(text.utf8)))
        var present = [Bool](repeating: false, count: phrases.count)
        for instance in found { present[instance.phrase] = true }
        var complete: [Int: Bool] = [:]
        for (index, phrase) in phrases.enumerated() {
            complete[phrase.alternative] = (complete[phrase.alternative] ?? true) && present[index]
        }
        return complete.values.contains(true)
    }

    /// `highlight(table, 0, open, close)`: the text with every run of matched tokens between `open` and `close`.
    func highlight(_ text: String, open: String, close: String) -> String {
        let bytes = Array(text.utf8)
        let tokens = documentTokens(bytes)
        var markup = Markup(
            bytes: bytes, instances: instances(in: tokens), sizes: phrases.map(\.tokens.count), open: open,
            close: close, rangeStart: 0, rangeEnd: 0)
        markup.run(tokens.map(\.range))
        markup.append(bytes[markup.offset...])
        return markup.result
    }

    /// `snippet(table, 0, open, close, ellipsis, tokenCount)`: the `tokenCount`-token window with the most
    /// distinct phrases (a window at a sentence start preferred), marked, with `ellipsis` where text was cut.
    func snippet(_ text: String, open: String, close: String, ellipsis: String, tokenCount: Int) -> String {
        let bytes = Array(text.utf8)
        let tokens = documentTokens(bytes)
        let found = instances(in: tokens)
        let sizes = phrases.map(\.tokens.count)
        let documentSize = tokens.count
        let sentenceStarts = Self.sentenceStarts(bytes, tokens: tokens)
        var bestScore = 0
        var bestStart = 0
        for instance in found {
            let (score, adjusted) = Self.score(
                found, sizes: sizes, from: instance.position, tokenCount: tokenCount, documentSize: documentSize)
            if score > bestScore {
                bestScore = score
                bestStart = adjusted
            }
            if !sentenceStarts.isEmpty && documentSize > tokenCount {
                var index = 0
                while index < sentenceStarts.count - 1 && sentenceStarts[index + 1] <= instance.position {
                    index += 1
                }
                if sentenceStarts[index] < instance.position {
                    var (score, _) = Self.score(
                        found, sizes: sizes, from: sentenceStarts[index], tokenCount: tokenCount,
                        documentSize: documentSize)
                    score += sentenceStarts[index] == 0 ? 120 : 100
                    if score > bestScore {
                        bestScore = score
                        bestStart = sentenceStarts[index]
                    }
                }
            }
        }
        var markup = Markup(
            bytes: bytes, instances: found, sizes: sizes, open: open, close: close, rangeStart: bestStart,
            rangeEnd: bestStart + tokenCount - 1)
        if bestStart > 0 { markup.append(ellipsis) }
        while markup.start >= 0 && markup.start < bestStart { markup.nextCoalesced() }
        markup.run(tokens.map(\.range))
        if markup.rangeEnd >= documentSize - 1 {
            markup.append(bytes[markup.offset...])
        } else {
            markup.append(ellipsis)
        }
        return markup.result
    }

    /// The positions of the tokens that start a sentence: the first, and any after `.` or `:` and white space.
    private static func sentenceStarts(_ bytes: [UInt8], tokens: [Token]) -> [Int] {
        var starts: [Int] = []
        for (position, token) in tokens.enumerated() {
            guard position > 0 else {
                starts.append(0)
                continue
            }
            var index = token.range.lowerBound - 1
            var character: UInt8 = 0
            while index >= 0 {
                character = bytes[index]
                if character != 0x20 && character != 0x09 && character != 0x0A && character != 0x0D { break }
                index -= 1
            }
            if index != token.range.lowerBound - 1 && (character == 0x2E || character == 0x3A) {
                starts.append(position)
            }
        }
        return starts
    }

    /// The score of the window of `tokenCount` tokens from `position` (1000 for each distinct phrase in it, 1 for
    /// each repeat), and where a window around those instances, centred, would start.
    private static func score(
        _ instances: [Instance], sizes: [Int], from position: Int, tokenCount: Int, documentSize: Int
    ) -> (score: Int, start: Int) {
        var seen = Set<Int>()
        var score = 0
        var first = -1
        var last = 0
        let end = position + tokenCount
        for instance in instances where instance.position >= position && instance.position < end {
            score += seen.insert(instance.phrase).inserted ? 1000 : 1
            if first < 0 { first = instance.position }
            last = instance.position + sizes[instance.phrase]
        }
        var adjusted = first - (tokenCount - (last - first)) / 2
        if adjusted + tokenCount > documentSize { adjusted = documentSize - tokenCount }
        if adjusted < 0 { adjusted = 0 }
        return (score, adjusted)
    }

    /// FTS5's highlight context: walks the tokens, copying the text and opening and closing marks around the
    /// coalesced phrase instances, within `rangeStart...rangeEnd` when `rangeEnd > 0`.
    private struct Markup {
        let bytes: [UInt8]
        let instances: [Instance]
        let sizes: [Int]
        let open: String
        let close: String
        let rangeStart: Int
        let rangeEnd: Int
        private(set) var output: [UInt8] = []
        private(set) var offset = 0
        private var next = 0
        /// The current coalesced run of instances, in token positions; -1 when there is none left.
        private(set) var start = -1
        private var end = -1

        init(
            bytes: [UInt8], instances: [Instance], sizes: [Int], open: String, close: String, rangeStart: Int,
            rangeEnd: Int
        ) {
            self.bytes = bytes
            self.instances = instances
            self.sizes = sizes
            self.open = open
            self.close = close
            self.rangeStart = rangeStart
            self.rangeEnd = rangeEnd
            nextCoalesced()
        }

        var result: String { String(decoding: output, as: UTF8.self) }

        mutating func append(_ text: String) { output.append(contentsOf: text.utf8) }
        mutating func append(_ slice: ArraySlice<UInt8>) { output.append(contentsOf: slice) }

        /// Moves to the next run of overlapping instances.
        mutating func nextCoalesced() {
            start = -1
            end = -1
            while next < instances.count {
                let instance = instances[next]
                let instanceEnd = instance.position - 1 + sizes[instance.phrase]
                if start < 0 {
                    start = instance.position
                    end = instanceEnd
                } else if instance.position <= end {
                    end = max(end, instanceEnd)
                } else {
                    break
                }
                next += 1
            }
        }

        /// The highlight callback over every token's byte range.
        mutating func run(_ ranges: [Range<Int>]) {
            for (position, range) in ranges.enumerated() {
                if rangeEnd > 0 {
                    if position < rangeStart || position > rangeEnd { continue }
                    if rangeStart != 0 && position == rangeStart { offset = range.lowerBound }
                }
                if position == start {
                    append(bytes[offset..<max(offset, range.lowerBound)])
                    append(open)
                    offset = range.lowerBound
                }
                if position == end {
                    if rangeEnd != 0 && start < rangeStart { append(open) }
                    append(bytes[offset..<max(offset, range.upperBound)])
                    append(close)
                    offset = range.upperBound
                    nextCoalesced()
                }
                if rangeEnd > 0 && position == rangeEnd {
                    append(bytes[offset..<max(offset, range.upperBound)])
                    offset = range.upperBound
                    if position >= start && position < end { append(close) }
                }
            }
        }
    }
}

/// Checks a candidate line against a query whose FTS5 expression only narrows the candidates
/// (``DialogueQuery/needsVerification``): the line must hold every phrase of an alternative, and no excluded one.
struct DialogueMatcher {
    private let required: DialogueHighlighter
    private let excluded: DialogueHighlighter

    init(query: DialogueQuery, segmenter: DialogueSegmenter) {
        required = DialogueHighlighter(phrases: query.phrases, segmenter: segmenter)
        excluded = DialogueHighlighter(phrases: query.excluded, segmenter: segmenter)
    }

    /// Whether the line `text` matches the query.
    func matches(_ text: String) -> Bool {
        required.holdsAnAlternative(text) && !excluded.holdsAnAlternative(text)
    }
}
