package dev.kvtier.core.index;

import dev.kvtier.core.value.PrefixKey;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The byte formats of the crash-safe index, little-endian, each protected by CRC32C (the JDK's).
 *
 * <p><b>Record</b> (the log): {@code u32 length, u32 crc, u64 epoch, u64 seq, u8 type, payload}; the CRC covers every
 * byte after itself. COMMIT's payload is a chunk; EVICT's is the allocation id. A reader accepts a record only if its
 * length fits, its CRC matches, and its epoch and sequence number are the expected ones, so a torn, stale or
 * zeroed record ends the log.
 *
 * <p><b>Checkpoint</b>: a 64-byte header {@code u64 magic, u32 version, u32 crc, u64 epoch, u64 checkpointSeq,
 * u64 nextRecordSeq, u64 slotBytes, u32 slotCount, u32 chunkCount, u32 bodyBytes, u32 reserved} and a body of chunks
 * in allocation order; the CRC covers the header after itself and the body.
 *
 * <p><b>Chunk</b>: {@code u64 keyHi, u64 keyLo, i32 modelId, u64 allocationId, i32 startSlot, i32 slotCount}, then per
 * slot {@code u8 known, u64 checksum}.
 */
public final class IndexCodec {
    /** "KVTIDX01". */
    public static final long MAGIC = 0x313058444954564BL;
    /** Format version of checkpoints and records. */
    public static final int VERSION = 1;
    public static final int CHECKPOINT_HEADER_BYTES = 64;
    public static final int RECORD_HEADER_BYTES = 25;
    public static final int CHUNK_FIXED_BYTES = 36;
    public static final int SLOT_ENTRY_BYTES = 9;
    public static final byte COMMIT = 1;
    public static final byte EVICT = 2;
    /** Length of an evict record: header and allocation id. */
    public static final int EVICT_RECORD_BYTES = RECORD_HEADER_BYTES + 8;

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private IndexCodec() {}

    /** A decoded record. */
    // The index log's own word; outside this file it is always written IndexCodec.Record.
    @SuppressWarnings("JavaLangClash")
    public sealed interface Record {
        long seq();
    }

    /** A chunk became committed. */
    public record Commit(long seq, IndexChunk chunk) implements Record {}

    /** A committed chunk left the ring. */
    public record Evict(long seq, long allocationId) implements Record {}

    /** A decoded checkpoint header. */
    public record CheckpointHeader(long epoch, long checkpointSeq, long nextRecordSeq, long slotBytes, int slotCount,
                                   int chunkCount, int bodyBytes, int crc) {}

    public static int chunkBytes(final int slotCount) {
        return CHUNK_FIXED_BYTES + slotCount * SLOT_ENTRY_BYTES;
    }

    public static byte[] commitRecord(final long epoch, final long seq, final PersistedChunk chunk) {
        final byte[] out = new byte[commitRecordBytes(chunk)];
        putCommitRecord(epoch, seq, chunk, out, 0);
        return out;
    }

    public static byte[] evictRecord(final long epoch, final long seq, final long allocationId) {
        final byte[] out = new byte[EVICT_RECORD_BYTES];
        putEvictRecord(epoch, seq, allocationId, out, 0);
        return out;
    }

    /** Length of {@code chunk}'s commit record. */
    public static int commitRecordBytes(final PersistedChunk chunk) {
        return RECORD_HEADER_BYTES + chunkBytes(chunk.slotCount());
    }

    /**
     * Writes {@code chunk}'s commit record (as {@link #commitRecord} makes it) into {@code out} at {@code at}, which
     * must hold {@link #commitRecordBytes} bytes from there; returns its length. No allocation: the index log encodes
     * every record straight into its lap.
     */
    public static int putCommitRecord(final long epoch, final long seq, final PersistedChunk chunk, final byte[] out,
                                      final int at) {
        final int length = commitRecordBytes(chunk);
        putChunk(out, putHeader(out, at, length, epoch, seq, COMMIT), chunk);
        INT.set(out, at + 4, crc(out, at + 8, length - 8));
        return length;
    }

    /** Writes an evict record (as {@link #evictRecord} makes it) into {@code out} at {@code at}; returns its length. */
    public static int putEvictRecord(final long epoch, final long seq, final long allocationId, final byte[] out,
                                     final int at) {
        final int p = putHeader(out, at, EVICT_RECORD_BYTES, epoch, seq, EVICT);
        LONG.set(out, p, allocationId);
        INT.set(out, at + 4, crc(out, at + 8, EVICT_RECORD_BYTES - 8));
        return EVICT_RECORD_BYTES;
    }

    /** A record's header at {@code at}, its CRC left 0; returns where its payload starts. */
    private static int putHeader(final byte[] out, final int at, final int length, final long epoch, final long seq,
                                 final byte type) {
        INT.set(out, at, length);
        INT.set(out, at + 4, 0);
        LONG.set(out, at + 8, epoch);
        LONG.set(out, at + 16, seq);
        out[at + 24] = type;
        return at + RECORD_HEADER_BYTES;
    }

    /**
     * Decodes the record at {@code at} of {@code bytes[0, limit)}; null when there is none there that is whole, intact
     * and has {@code epoch} and {@code seq}.
     */
    public static Record readRecord(final byte[] bytes, final int at, final int limit, final long epoch,
                                    final long seq) {
        if (limit - at < RECORD_HEADER_BYTES) {
            return null;
        }
        final ByteBuffer b = ByteBuffer.wrap(bytes, at, limit - at).order(ByteOrder.LITTLE_ENDIAN);
        final int length = b.getInt();
        if (length < RECORD_HEADER_BYTES || length > limit - at) {
            return null;
        }
        final int crc = b.getInt();
        if (crc != crc(bytes, at + 8, length - 8)) {
            return null;
        }
        if (b.getLong() != epoch || b.getLong() != seq) {
            return null;
        }
        final byte type = b.get();
        final int payload = length - RECORD_HEADER_BYTES;
        if (type == COMMIT && payload >= CHUNK_FIXED_BYTES) {
            final IndexChunk c = getChunk(b, payload);
            return c == null ? null : new Commit(seq, c);
        }
        if (type == EVICT && payload == 8) {
            return new Evict(seq, b.getLong());
        }
        return null;
    }

    /**
     * True when the bytes at {@code at} of {@code bytes[0, limit)} may be the start of a record that continues past
     * {@code limit} (its header is cut off, or it says a length that fits the array but not the bytes read so far):
     * the caller should read more before deciding the log ended.
     */
    public static boolean incomplete(final byte[] bytes, final int at, final int limit) {
        if (limit - at < RECORD_HEADER_BYTES) {
            return true;
        }
        final int length = recordLength(bytes, at);
        return length >= RECORD_HEADER_BYTES && length <= bytes.length - at && length > limit - at;
    }

    /** Length of the record at {@code at} as its header says (only meaningful after {@link #readRecord}). */
    public static int recordLength(final byte[] bytes, final int at) {
        return ByteBuffer.wrap(bytes, at, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    /** A whole checkpoint: header and body. */
    public static byte[] checkpoint(final long epoch, final long checkpointSeq, final long nextRecordSeq,
                                    final long slotBytes, final int slotCount,
                                    final List<? extends PersistedChunk> chunks) {
        final byte[] out = new byte[checkpointBytes(chunks)];
        putCheckpoint(epoch, checkpointSeq, nextRecordSeq, slotBytes, slotCount, chunks, out);
        return out;
    }

    /** Length of the checkpoint of {@code chunks}: header and body. */
    public static int checkpointBytes(final List<? extends PersistedChunk> chunks) {
        int body = 0;
        for (final PersistedChunk c : chunks) {
            body += chunkBytes(c.slotCount());
        }
        return CHECKPOINT_HEADER_BYTES + body;
    }

    /**
     * Writes the checkpoint {@link #checkpoint} makes into the start of {@code out}, which must hold
     * {@link #checkpointBytes} bytes; returns its length (the index log reuses one array for every checkpoint).
     */
    public static int putCheckpoint(final long epoch, final long checkpointSeq, final long nextRecordSeq,
                                    final long slotBytes, final int slotCount,
                                    final List<? extends PersistedChunk> chunks,
                                    final byte[] out) {
        final int length = checkpointBytes(chunks);
        final ByteBuffer b = ByteBuffer.wrap(out, 0, length).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(MAGIC).putInt(VERSION).putInt(0).putLong(epoch).putLong(checkpointSeq).putLong(nextRecordSeq)
            .putLong(slotBytes).putInt(slotCount).putInt(chunks.size()).putInt(length - CHECKPOINT_HEADER_BYTES)
            .putInt(0);
        int p = b.position();
        for (final PersistedChunk c : chunks) {
            p = putChunk(out, p, c);
        }
        INT.set(out, 12, crc(out, 16, length - 16));
        return length;
    }

    /** The header at the start of {@code bytes}, or null when it is not a checkpoint header of this version. */
    public static CheckpointHeader readHeader(final byte[] bytes) {
        final ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < CHECKPOINT_HEADER_BYTES || b.getLong() != MAGIC || b.getInt() != VERSION) {
            return null;
        }
        final int crc = b.getInt();
        final CheckpointHeader h = new CheckpointHeader(b.getLong(), b.getLong(), b.getLong(), b.getLong(),
            b.getInt(), b.getInt(), b.getInt(), crc);
        return h.bodyBytes() < 0 || h.chunkCount() < 0 ? null : h;
    }

    /** The chunks of a checkpoint whose header and body are in {@code bytes}; null when the CRC does not match. */
    public static List<IndexChunk> readBody(final byte[] bytes, final CheckpointHeader h) {
        final int total = CHECKPOINT_HEADER_BYTES + h.bodyBytes();
        if (total > bytes.length || crc(bytes, 16, total - 16) != h.crc()) {
            return null;
        }
        final ByteBuffer b = ByteBuffer.wrap(bytes, CHECKPOINT_HEADER_BYTES, h.bodyBytes())
            .order(ByteOrder.LITTLE_ENDIAN);
        final List<IndexChunk> out = new ArrayList<>(h.chunkCount());
        for (int i = 0; i < h.chunkCount(); i++) {
            final IndexChunk c = getChunk(b, b.remaining());
            if (c == null) {
                return null;
            }
            out.add(c);
        }
        return out;
    }

    /** Writes {@code c} (fixed part, then each slot's known flag and sum) at {@code p}; returns where it ends. */
    private static int putChunk(final byte[] out, final int p, final PersistedChunk c) {
        LONG.set(out, p, c.key().hi());
        LONG.set(out, p + 8, c.key().lo());
        INT.set(out, p + 16, c.modelId());
        LONG.set(out, p + 20, c.allocationId());
        INT.set(out, p + 28, c.startSlot());
        INT.set(out, p + 32, c.slotCount());
        int at = p + CHUNK_FIXED_BYTES;
        for (int i = 0; i < c.slotCount(); i++) {
            out[at] = (byte) (c.known(i) ? 1 : 0);
            LONG.set(out, at + 1, c.sum(i));
            at += SLOT_ENTRY_BYTES;
        }
        return at;
    }

    private static IndexChunk getChunk(final ByteBuffer b, final int available) {
        if (available < CHUNK_FIXED_BYTES) {
            return null;
        }
        final PrefixKey key = new PrefixKey(b.getLong(), b.getLong());
        final int model = b.getInt();
        final long alloc = b.getLong();
        final int start = b.getInt();
        final int count = b.getInt();
        if (start < 0 || count <= 0 || (long) count * SLOT_ENTRY_BYTES > available - CHUNK_FIXED_BYTES) {
            return null;
        }
        final long[] sums = new long[count];
        final boolean[] known = new boolean[count];
        for (int i = 0; i < count; i++) {
            known[i] = b.get() == 1;
            sums[i] = b.getLong();
        }
        return new IndexChunk(key, model, alloc, start, count, sums, known);
    }

    private static int crc(final byte[] bytes, final int from, final int length) {
        final CRC32C c = new CRC32C();
        c.update(bytes, from, length);
        return (int) c.getValue();
    }
}
