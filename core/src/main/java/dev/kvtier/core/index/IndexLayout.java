package dev.kvtier.core.index;

import dev.kvtier.core.geometry.Alignment;

/**
 * Where the crash-safe L2 index lives on its device: two checkpoint areas (written alternately, so a torn checkpoint
 * never destroys the previous one) followed by the log area, where the append-only record log of the current lap is
 * written from the start after each checkpoint. Sizes follow from the ring: a checkpoint area holds every slot's
 * entry ({@link IndexCodec#CHUNK_FIXED_BYTES} per chunk plus {@link IndexCodec#SLOT_ENTRY_BYTES} per slot); the log
 * area holds at least four of the largest records and 256 KiB.
 *
 * @param checkpointBytes bytes of one checkpoint area (a multiple of 4096)
 * @param logOffset       first byte of the log area
 * @param logBytes        bytes of the log area (a multiple of 4096)
 */
public record IndexLayout(long checkpointBytes, long logOffset, long logBytes) {
    /** Smallest log area. */
    public static final long MIN_LOG_BYTES = 256L << 10;

    /** The layout for a ring of {@code slotCount} slots. */
    public static IndexLayout forSlots(final int slotCount) {
        final long maxBody = (long) slotCount * (IndexCodec.CHUNK_FIXED_BYTES + IndexCodec.SLOT_ENTRY_BYTES);
        final long checkpoint = Alignment.up(IndexCodec.CHECKPOINT_HEADER_BYTES + maxBody);
        final long maxRecord = IndexCodec.RECORD_HEADER_BYTES + IndexCodec.CHUNK_FIXED_BYTES
            + (long) slotCount * IndexCodec.SLOT_ENTRY_BYTES;
        final long log = Alignment.up(Math.max(MIN_LOG_BYTES, 4 * maxRecord));
        return new IndexLayout(checkpoint, 2 * checkpoint, log);
    }

    /** Bytes the index device must hold. */
    public long deviceBytes() {
        return logOffset + logBytes;
    }

    /** First byte of checkpoint area {@code which} (0 or 1). */
    public long checkpointOffset(final int which) {
        return which * checkpointBytes;
    }
}
