internal import CFFmpeg
import Dispatch
import Foundation
import Synchronization

/// What `BitmapTrackRecognizer` is asked to do.
public struct OCROptions: Sendable, Equatable {
    /// `--ocr-lang`: the language to read every track in, instead of each track's own tag.
    public var language: OCRLanguage?
    /// `--jobs`: how many events are recognized at once (one Tesseract engine per thread).
    public var jobs: Int

    /// Options; `jobs` at least 1.
    public init(language: OCRLanguage? = nil, jobs: Int = 1) {
        self.language = language
        self.jobs = max(1, jobs)
    }
}

/// Reads bitmap subtitle tracks (PGS, VobSub, DVB) as text: libavcodec decodes each event's pictures,
/// `BitmapPreparation` readies them, and Tesseract recognizes them in the track's language, `jobs` events at a
/// time with one engine per thread. Events are decoded and recognized in batches, so memory stays flat however
/// long the track.
///
///     let media = try MediaFile(path: "movie.mkv")
///     let recognizer = BitmapTrackRecognizer(file: media, options: OCROptions(jobs: 2))
///     let track = try recognizer.recognize(media.subtitleStreams[0])
///     let srt = track.subtitleData(format: .srt)
public final class BitmapTrackRecognizer {
    /// The media file the tracks come from.
    public let file: MediaFile
    public let options: OCROptions
    /// Events decoded before a batch is recognized: enough to keep every thread busy, few enough to hold.
    static let batchSize = 64

    /// A recognizer over an opened file.
    public init(file: MediaFile, options: OCROptions) {
        self.file = file
        self.options = options
    }

    /// Reads `stream` (a bitmap subtitle stream of `file`) in one demux pass and recognizes every event.
    /// Throws `OCRError` for a missing language pack, a track with no events or no contrast, and `MediaError`
    /// when the file cannot be read.
    public func recognize(_ stream: MediaStream) throws -> RecognizedTrack {
        let track = stream.playerIndex ?? 0
        guard stream.subtitleEncoding == .bitmap else {
            throw OCRError.notBitmap(file: file.path, track: track, codec: stream.codec)
        }
        let language = options.language ?? OCRLanguage.forTrack(stream)
        // The first engine is made here so a missing language pack is reported before anything is read.
        let shelves = (0..<options.jobs).map { _ in EngineShelf(file: file.path, track: track) }
        try shelves[0].prepare(language)
        let source = try file.claimDemuxer()
        guard let avStream = source.avStream(stream.index) else {
            throw MediaError.noSuchTrack(file: file.path, requested: "stream \(stream.index)", available: "")
        }
        let decoder = try BitmapSubtitleDecoder(stream: stream, avStream: avStream, file: file.path)
        var events: [RecognizedEvent] = []
        var pending: [BitmapEvent] = []
        var frame = (width: 0, height: 0)
        func flush() throws {
            if let last = pending.last, last.frameWidth > 0 { frame = (last.frameWidth, last.frameHeight) }
            events += try recognize(pending, language: language, shelves: shelves)
            pending.removeAll(keepingCapacity: true)
        }
        var readProblem: SubtitleDecodeProblem?
        let context = source.context
        for index in 0..<Int(context.pointee.nb_streams) {
            source.avStream(index)?.pointee.discard = index == stream.index ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
        let packet = try Packet(file: file.path)
        let offset = -(source.startTime ?? 0)
        var lastTime = 0.0
        while true {
            let (code, _) = MediaLog.capture { av_read_frame(context, packet.packet) }
            if code < 0 {
                if code != cffmpeg_averror_eof() {
                    readProblem = SubtitleDecodeProblem(
                        time: lastTime, reason: "reading stopped here: " + MediaError.message(for: code))
                }
                break
            }
            defer { av_packet_unref(packet.packet) }
            guard Int(packet.packet.pointee.stream_index) == stream.index else { continue }
            let time = packet.shiftTimestamps(by: offset, timeBase: avStream.pointee.time_base)
            if let time { lastTime = max(lastTime, time) }
            pending += decoder.decode(packet.packet, time: time)
            if pending.count >= BitmapTrackRecognizer.batchSize { try flush() }
        }
        pending += decoder.finish()
        try flush()
        let problems = decoder.problems + (readProblem.map { [$0] } ?? [])
        if events.isEmpty {
            if problems.isEmpty { throw OCRError.noEvents(file: file.path, track: track) }
        } else if events.allSatisfy(\.lacksContrast) {
            throw OCRError.noContrast(file: file.path, track: track)
        }
        return RecognizedTrack(
            stream: stream, language: language, events: events.sorted { $0.start < $1.start }, problems: problems,
            frameWidth: frame.width, frameHeight: frame.height)
    }

    /// Recognizes a batch on `shelves.count` threads, each with its own engines; results in the batch's order.
    private func recognize(
        _ batch: [BitmapEvent], language: OCRLanguage, shelves: [EngineShelf]
    ) throws -> [RecognizedEvent] {
        guard !batch.isEmpty else { return [] }
        let results = Mutex<[Int: Result<RecognizedEvent, Error>]>([:])
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(shelves.count, batch.count)) { worker in
            let shelf = shelves[worker]
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < batch.count else { return }
                let result = Result { try BitmapTrackRecognizer.recognize(batch[index], language: language, on: shelf) }
                results.withLock { $0[index] = result }
            }
        }
        return try results.withLock { results in try (0..<batch.count).compactMap { try results[$0]?.get() } }
    }

    /// Reads one event: each picture prepared and recognized, texts joined top to bottom.
    static func recognize(
        _ event: BitmapEvent, language: OCRLanguage, on shelf: EngineShelf
    ) throws -> RecognizedEvent {
        var texts: [String] = []
        var confidences: [Int] = []
        var lacksContrast = false
        for bitmap in event.bitmaps.sorted(by: { ($0.y, $0.x) < ($1.y, $1.x) }) {
            switch try BitmapPreparation.prepare(bitmap, mayBeVertical: language.mayBeVertical) {
            case .blank: continue
            case .noContrast: lacksContrast = true
            case .ready(let image, let layout):
                let engine = try shelf.engine(layout == .vertical ? language.vertical : language)
                let (text, confidence) = engine.recognize(image, layout: layout)
                if !text.isEmpty {
                    texts.append(OCRTextCleanup.clean(text, language: language))
                    confidences.append(confidence)
                }
            }
        }
        return RecognizedEvent(
            start: event.start, end: event.end, text: texts.joined(separator: "\n"),
            confidence: confidences.min() ?? 0, position: position(of: event), lacksContrast: lacksContrast)
    }

    /// The top centre of the event's pictures, nil when they sit in the bottom third of the frame (or the frame
    /// size is unknown).
    static func position(of event: BitmapEvent) -> (x: Int, y: Int)? {
        guard event.frameHeight > 0, event.frameWidth > 0, !event.bitmaps.isEmpty else { return nil }
        let left = event.bitmaps.map(\.x).min() ?? 0
        let right = event.bitmaps.map { $0.x + $0.width }.max() ?? 0
        let top = event.bitmaps.map(\.y).min() ?? 0
        let bottom = event.bitmaps.map { $0.y + $0.height }.max() ?? 0
        if bottom * 3 > event.frameHeight * 2 && top * 2 > event.frameHeight { return nil }
        return ((left + right) / 2, top)
    }
}

/// One worker's Tesseract engines, one per language it has needed, used only by that worker's thread (which is
/// what makes the `@unchecked Sendable` true: `concurrentPerform` gives each worker index to one thread at a time).
final class EngineShelf: @unchecked Sendable {
    private var engines: [OCRLanguage: TesseractEngine] = [:]
    private let file: String
    private let track: Int

    init(file: String, track: Int) {
        self.file = file
        self.track = track
    }

    /// Makes the engine for `language` now (to report a missing language pack early).
    func prepare(_ language: OCRLanguage) throws(OCRError) { _ = try engine(language) }

    /// The engine for `language`, made on first use.
    func engine(_ language: OCRLanguage) throws(OCRError) -> TesseractEngine {
        if let engine = engines[language] { return engine }
        let engine = try TesseractEngine(language: language, file: file, track: track)
        engines[language] = engine
        return engine
    }
}
