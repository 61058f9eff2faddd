package dev.kvtier.core.config;

import dev.kvtier.core.geometry.Alignment;

/**
 * Every knob of the storage core, validated together. Defaults are the reference's (STORAGE-CORE.md section 8)
 * unless noted.
 *
 * @param slotBytes              bytes of one slot (from the model geometry); a multiple of 4096
 * @param l2Bytes                L2 file size; the ring has {@code floor(l2Bytes / slotBytes)} slots
 * @param l1Bytes                L1 budget for resident entries; the pool is {@code align4096(l1Bytes)}
 * @param headroomRatio          H = min(l1, align4096(max(4096, ceil(l1 / ratio)))); reference 20
 * @param groupedWriteBatchBytes a grouped L2 write batch is sealed before it exceeds max(span, this); ref 64 MiB
 * @param coalesceStoreSpans     merge spans adjacent in source and file at the server boundary; ref true
 * @param concurrentIos          L2 I/Os in flight at once; ref 8
 * @param readBatchMax           reads in one load read batch; ref 8
 * @param maxReadBytes           one load read is at most this long (our choice: the write batch size)
 * @param stagingBatchBytes      one client staging batch holds floor(this / slotBytes) slots
 * @param stagingPoolBytes       client staging memory; a save waits when it is full (our choice: 2 batches)
 * @param replacement            L1 replacement policy
 * @param commitMode             when a commit becomes visible
 */
public record CoreConfig(long slotBytes, long l2Bytes, long l1Bytes, int headroomRatio, long groupedWriteBatchBytes,
                         boolean coalesceStoreSpans, int concurrentIos, int readBatchMax, long maxReadBytes,
                         long stagingBatchBytes, long stagingPoolBytes, ReplacementKind replacement,
                         CommitMode commitMode) {

    /** 64 MiB. */
    public static final long MIB_64 = 64L << 20;

    public CoreConfig {
        Alignment.requireAligned("slotBytes", slotBytes);
        positive("slotBytes", slotBytes);
        if (l2Bytes < slotBytes) {
            throw new IllegalArgumentException("l2Bytes (" + l2Bytes + ") must hold at least one slot of "
                + slotBytes + " B");
        }
        if (l2Bytes / slotBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("l2Bytes gives more than 2^31-1 slots: " + l2Bytes);
        }
        positive("l1Bytes", l1Bytes);
        positive("headroomRatio", headroomRatio);
        Alignment.requireAligned("groupedWriteBatchBytes", groupedWriteBatchBytes);
        positive("groupedWriteBatchBytes", groupedWriteBatchBytes);
        positive("concurrentIos", concurrentIos);
        positive("readBatchMax", readBatchMax);
        Alignment.requireAligned("maxReadBytes", maxReadBytes);
        positive("maxReadBytes", maxReadBytes);
        if (stagingBatchBytes < slotBytes) {
            throw new IllegalArgumentException("stagingBatchBytes (" + stagingBatchBytes
                + ") must hold at least one slot of " + slotBytes + " B");
        }
        if (stagingPoolBytes < stagingBatchBytes) {
            throw new IllegalArgumentException("stagingPoolBytes (" + stagingPoolBytes
                + ") must hold at least one staging batch of " + stagingBatchBytes + " B");
        }
        if (replacement == null || commitMode == null) {
            throw new IllegalArgumentException("replacement and commitMode must be set");
        }
    }

    /**
     * The reference defaults for a slot size: 10 GiB L2 (whole slots), L1 = min(1 GiB, L2), headroom ratio 20,
     * 64 MiB write batches, coalescing on, 8 I/Os, read batches of 8, 64 MiB staging batches, two of them.
     */
    public static CoreConfig defaults(final long slotBytes) {
        final long l2 = (10L << 30) / slotBytes * slotBytes;
        final long staging = Math.max(MIB_64 / slotBytes, 1) * slotBytes;
        return new CoreConfig(slotBytes, l2, Math.min(1L << 30, l2), 20, MIB_64, true, 8, 8, MIB_64,
            staging, 2 * staging, ReplacementKind.LRU, CommitMode.L1);
    }

    /** Slots in the L2 ring. */
    public int l2Slots() {
        return Math.toIntExact(l2Bytes / slotBytes);
    }

    /** Slots per client staging batch. */
    public int stagingBatchSlots() {
        return Math.toIntExact(stagingBatchBytes / slotBytes);
    }

    /** Bytes of the L1 pool: align4096(l1Bytes). */
    public long l1PoolBytes() {
        return Alignment.up(l1Bytes);
    }

    public CoreConfig withL1Bytes(final long bytes) {
        return new CoreConfig(slotBytes, l2Bytes, bytes, headroomRatio, groupedWriteBatchBytes, coalesceStoreSpans,
            concurrentIos, readBatchMax, maxReadBytes, stagingBatchBytes, stagingPoolBytes, replacement, commitMode);
    }

    public CoreConfig withL2Bytes(final long bytes) {
        return new CoreConfig(slotBytes, bytes, l1Bytes, headroomRatio, groupedWriteBatchBytes, coalesceStoreSpans,
            concurrentIos, readBatchMax, maxReadBytes, stagingBatchBytes, stagingPoolBytes, replacement, commitMode);
    }

    public CoreConfig withCoalesce(final boolean on) {
        return new CoreConfig(slotBytes, l2Bytes, l1Bytes, headroomRatio, groupedWriteBatchBytes, on,
            concurrentIos, readBatchMax, maxReadBytes, stagingBatchBytes, stagingPoolBytes, replacement, commitMode);
    }

    public CoreConfig withReplacement(final ReplacementKind kind) {
        return new CoreConfig(slotBytes, l2Bytes, l1Bytes, headroomRatio, groupedWriteBatchBytes, coalesceStoreSpans,
            concurrentIos, readBatchMax, maxReadBytes, stagingBatchBytes, stagingPoolBytes, kind, commitMode);
    }

    public CoreConfig withStaging(final long batchBytes, final long poolBytes) {
        return new CoreConfig(slotBytes, l2Bytes, l1Bytes, headroomRatio, groupedWriteBatchBytes, coalesceStoreSpans,
            concurrentIos, readBatchMax, maxReadBytes, batchBytes, poolBytes, replacement, commitMode);
    }

    public CoreConfig withIo(final int ios, final int readBatch, final long writeBatchBytes, final long readBytes) {
        return new CoreConfig(slotBytes, l2Bytes, l1Bytes, headroomRatio, writeBatchBytes, coalesceStoreSpans,
            ios, readBatch, readBytes, stagingBatchBytes, stagingPoolBytes, replacement, commitMode);
    }

    public CoreConfig withHeadroomRatio(final int ratio) {
        return new CoreConfig(slotBytes, l2Bytes, l1Bytes, ratio, groupedWriteBatchBytes, coalesceStoreSpans,
            concurrentIos, readBatchMax, maxReadBytes, stagingBatchBytes, stagingPoolBytes, replacement, commitMode);
    }

    public CoreConfig withCommitMode(final CommitMode mode) {
        return new CoreConfig(slotBytes, l2Bytes, l1Bytes, headroomRatio, groupedWriteBatchBytes, coalesceStoreSpans,
            concurrentIos, readBatchMax, maxReadBytes, stagingBatchBytes, stagingPoolBytes, replacement, mode);
    }

    private static void positive(final String what, final long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + value);
        }
    }
}
