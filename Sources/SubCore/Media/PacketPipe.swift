internal import CFFmpeg
import Foundation

/// A bounded hand-over of demuxed packets from a reading thread to a writing thread, so that a remux reads
/// (libavformat's demuxer) on one core while it muxes and writes on the other. Packets move by reference
/// (`av_packet_move_ref`: no copy of their data); at most `maximumPackets` packets or `maximumBytes` bytes wait
/// at once, so memory stays flat. Either side can stop the other: `finish` (the reader is done, with or without
/// an error) and `cancel` (the writer failed). Packets still queued are freed in `deinit`.
final class PacketPipe: @unchecked Sendable {  // every field is guarded by `condition`
    private let condition = NSCondition()
    private var packets: [UnsafeMutablePointer<AVPacket>] = []
    private var head = 0
    private var bytes = 0
    private var finished = false
    private var cancelled = false
    private var failure: (any Error)?
    /// Whether a side is waiting: the other wakes it only then (a wake-up per packet costs context switches).
    private var pusherWaiting = false
    private var popperWaiting = false
    private let maximumPackets: Int
    private let maximumBytes: Int

    /// A pipe holding at most `maximumPackets` packets and `maximumBytes` bytes of packet data (a single larger
    /// packet still passes).
    init(maximumPackets: Int = 256, maximumBytes: Int = 16 << 20) {
        self.maximumPackets = maximumPackets
        self.maximumBytes = maximumBytes
    }

    deinit {
        for index in head..<packets.count {
            var doomed: UnsafeMutablePointer<AVPacket>? = packets[index]
            av_packet_free(&doomed)
        }
    }

    /// Moves `packet`'s reference into the pipe (leaving `packet` blank), waiting while the pipe is full.
    /// Returns false when the writer cancelled (the packet is left as it was).
    func push(_ packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        guard let moved = av_packet_alloc() else { return false }
        let size = Int(packet.pointee.size)
        condition.lock()
        defer { condition.unlock() }
        while !cancelled, packets.count - head > 0,
            packets.count - head >= maximumPackets || bytes + size > maximumBytes
        {
            pusherWaiting = true
            condition.wait()
            pusherWaiting = false
        }
        if cancelled {
            var doomed: UnsafeMutablePointer<AVPacket>? = moved
            av_packet_free(&doomed)
            return false
        }
        av_packet_move_ref(moved, packet)
        packets.append(moved)
        bytes += size
        if popperWaiting { condition.broadcast() }
        return true
    }

    /// The reader is done; `error` is why it stopped early, nil at the end of the file.
    func finish(_ error: (any Error)?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The writer gives up: the reader's next `push` returns false.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next packet (the caller frees it with `av_packet_free`), nil at the end; rethrows the reader's error.
    func pop() throws -> UnsafeMutablePointer<AVPacket>? {
        condition.lock()
        defer { condition.unlock() }
        while head == packets.count && !finished {
            popperWaiting = true
            condition.wait()
            popperWaiting = false
        }
        if head < packets.count {
            let packet = packets[head]
            head += 1
            bytes -= Int(packet.pointee.size)
            if head > 1024 {
                packets.removeFirst(head)
                head = 0
            }
            if pusherWaiting { condition.broadcast() }
            return packet
        }
        if let failure { throw failure }
        return nil
    }
}

/// A value handed to another thread that only that thread uses from then on (the demuxer of a remux).
struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
}
