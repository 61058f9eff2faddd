package dev.kvtier.sim.run;

import dev.kvtier.core.index.IndexCodec;
import dev.kvtier.core.index.IndexLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.BiFunction;

/**
 * What a recovery must replay, read again from the index device's bytes as docs/design/FAULTS-AND-CRASH-SAFETY.md
 * says (the opening): the newest intact checkpoint of this ring (by epoch, then checkpoint number), then the records of
 * the log area that follow it while each is whole and intact and has the checkpoint's epoch and the next sequence
 * number. Decoding a record's bytes uses the core's codec, but the epoch and sequence number it must have are judged
 * here. Also says what sits where that replay stops: an intact record of the same epoch with a later sequence number
 * (a hole followed by a record of a later lap: only its sequence number refuses it), or an intact record of an earlier
 * epoch with exactly the expected sequence number (a stale record of an earlier incarnation: only its epoch refuses
 * it). Those are the recovery corners of issue 36.
 *
 * @param records   records the recovery must replay; -1 when no checkpoint of this ring is intact (a format)
 * @param laterAtEnd an intact record of the checkpoint's epoch with a later sequence number sits where replay stops
 * @param staleAtEnd an intact record of an earlier epoch with the expected sequence number sits where replay stops
 */
public record RecoveryScan(long records, boolean laterAtEnd, boolean staleAtEnd) {
    /** Scans the device as {@code read(offset, length)} returns it, for a ring of slots of {@code slotBytes}. */
    public static RecoveryScan of(final IndexLayout layout, final long slotBytes,
                                  final BiFunction<Long, Integer, byte[]> read) {
        final IndexCodec.CheckpointHeader[] headers = new IndexCodec.CheckpointHeader[2];
        for (int s = 0; s < 2; s++) {
            headers[s] = IndexCodec.readHeader(read.apply(layout.checkpointOffset(s), 4096));
        }
        for (int tries = 0; tries < 2; tries++) {
            final int s = newest(headers);
            if (s < 0) {
                break;
            }
            final IndexCodec.CheckpointHeader h = headers[s];
            headers[s] = null;
            final long length = up(IndexCodec.CHECKPOINT_HEADER_BYTES + (long) h.bodyBytes());
            if (h.slotBytes() != slotBytes || length > layout.checkpointBytes()
                || IndexCodec.readBody(read.apply(layout.checkpointOffset(s), (int) length), h) == null) {
                continue;
            }
            return scanLog(read.apply(layout.logOffset(), Math.toIntExact(layout.logBytes())), h);
        }
        return new RecoveryScan(-1, false, false);
    }

    private static int newest(final IndexCodec.CheckpointHeader[] headers) {
        int best = -1;
        for (int s = 0; s < 2; s++) {
            final IndexCodec.CheckpointHeader h = headers[s];
            if (h != null && (best < 0 || h.epoch() > headers[best].epoch()
                || (h.epoch() == headers[best].epoch() && h.checkpointSeq() > headers[best].checkpointSeq()))) {
                best = s;
            }
        }
        return best;
    }

    private static RecoveryScan scanLog(final byte[] area, final IndexCodec.CheckpointHeader h) {
        int at = 0;
        long seq = h.nextRecordSeq();
        long records = 0;
        while (true) {
            final long[] raw = intact(area, at);
            if (raw == null || raw[1] != h.epoch() || raw[2] != seq) {
                final boolean later = raw != null && raw[1] == h.epoch() && raw[2] > seq;
                final boolean stale = raw != null && raw[1] < h.epoch() && raw[2] == seq;
                return new RecoveryScan(records, later, stale);
            }
            records++;
            seq++;
            at += (int) raw[0];
        }
    }

    /** The record at {@code at} if it is whole and intact: {length, epoch, seq}; null otherwise. */
    private static long[] intact(final byte[] area, final int at) {
        if (area.length - at < IndexCodec.RECORD_HEADER_BYTES) {
            return null;
        }
        final ByteBuffer b = ByteBuffer.wrap(area, at, area.length - at).order(ByteOrder.LITTLE_ENDIAN);
        final int length = b.getInt();
        b.getInt();
        final long epoch = b.getLong();
        final long seq = b.getLong();
        if (length < IndexCodec.RECORD_HEADER_BYTES || length > area.length - at
            || IndexCodec.readRecord(area, at, area.length, epoch, seq) == null) {
            return null;
        }
        return new long[] {length, epoch, seq};
    }

    private static long up(final long bytes) {
        return (bytes + 4095) / 4096 * 4096;
    }
}
