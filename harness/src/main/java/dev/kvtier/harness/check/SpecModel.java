package dev.kvtier.harness.check;

import dev.kvtier.core.config.CoreConfig;

/**
 * The arithmetic of docs/design/STORAGE-CORE.md, written again from the text for the checkers, so that a wrong formula
 * in the core (its admission, its ring size, its batch bounds) cannot hide behind a checker that calls it. Only the
 * knobs' values are taken from {@link CoreConfig}; nothing it derives is.
 */
public final class SpecModel {
    /** Alignment of every L2 offset and length and every L1 lease (section 1). */
    public static final long ALIGN = 4096;

    private SpecModel() {}

    /** {@code bytes} rounded up to a multiple of 4096. */
    public static long align4096(final long bytes) {
        return (bytes + ALIGN - 1) / ALIGN * ALIGN;
    }

    /** The L1 pool: {@code align4096(l1Bytes)} (section 3). */
    public static long poolBytes(final CoreConfig c) {
        return align4096(c.l1Bytes());
    }

    /** Headroom {@code H = min(l1, align4096(max(4096, ceil(l1 / headroomRatio))))} (section 3), l1 as the pool. */
    public static long headroomBytes(final CoreConfig c) {
        final long l1 = poolBytes(c);
        final long ceil = (l1 + c.headroomRatio() - 1) / c.headroomRatio();
        return Math.min(l1, align4096(Math.max(ALIGN, ceil)));
    }

    /** {@code saveTarget = l1 - H} (section 3). */
    public static long saveTargetBytes(final CoreConfig c) {
        return poolBytes(c) - headroomBytes(c);
    }

    /** After a grouped store, resident bytes are at most {@code max(bytes just stored, saveTarget)} (section 3). */
    public static long trimBoundBytes(final CoreConfig c, final long storedBytes) {
        return Math.max(storedBytes, saveTargetBytes(c));
    }

    /** Slots of the L2 ring: {@code floor(l2Bytes / slotBytes)} (section 2). */
    public static int ringSlots(final CoreConfig c) {
        return Math.toIntExact(c.l2Bytes() / c.slotBytes());
    }

    /** Slots of one staging batch: {@code floor(stagingBatchBytes / slotBytes)} (section 4.1). */
    public static int stagingBatchSlots(final CoreConfig c) {
        return Math.toIntExact(c.stagingBatchBytes() / c.slotBytes());
    }

    /** A write batch never exceeds {@code max(its largest span, groupedWriteBatchBytes)} (section 4.3). */
    public static long writeBatchBoundBytes(final CoreConfig c, final long largestSpanBytes) {
        return Math.max(largestSpanBytes, c.groupedWriteBatchBytes());
    }

    /**
     * The longest single load read: {@code maxReadBytes} (at most L1's size) in whole slots, or one slot when that is
     * less than a slot (every read covers whole slots, to check each against its checksum; our choice,
     * docs/design/STORAGE-CORE.md section 10).
     */
    public static long readBoundBytes(final CoreConfig c) {
        final long cap = Math.min(c.maxReadBytes(), poolBytes(c));
        return Math.max(1, cap / c.slotBytes()) * c.slotBytes();
    }
}
