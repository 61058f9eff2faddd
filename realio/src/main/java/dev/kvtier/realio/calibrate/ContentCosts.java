package dev.kvtier.realio.calibrate;

import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.realio.memory.NativeMemory;

/**
 * What a real run pays per byte of content on its one thread besides copies, measured on slot-sized pieces of
 * native memory (huge pages, as a run's memory): the core's slot checksum (XXH3-64, {@link NativeMemory#checksum}),
 * the workload's fill of a computed slot with its key's pattern ({@link NativeMemory#stamp}) and its check of a loaded
 * slot ({@link NativeMemory#firstMismatch}); and the checksum again, of each slot right after a copy into it, as a
 * store takes it. Each figure is the best of several rounds over 64 slots (a region much larger than the caches, as a
 * run's slots are), after the warm-up {@link Warmed} sets.
 *
 * @param checksumBytesPerSec slot checksum bandwidth
 * @param stampBytesPerSec    fill bandwidth
 * @param verifyBytesPerSec   check bandwidth
 * @param checksumCopiedBytesPerSec slot checksum bandwidth right after a copy into the slot
 */
public record ContentCosts(long checksumBytesPerSec, long stampBytesPerSec, long verifyBytesPerSec,
                           long checksumCopiedBytesPerSec) {
    private static final int SLOTS = 64;

    public ContentCosts {
        if (checksumBytesPerSec <= 0 || stampBytesPerSec <= 0 || verifyBytesPerSec <= 0
            || checksumCopiedBytesPerSec <= 0) {
            throw new IllegalArgumentException("content costs are positive bandwidths: " + checksumBytesPerSec + ", "
                + stampBytesPerSec + ", " + verifyBytesPerSec + ", " + checksumCopiedBytesPerSec);
        }
    }

    private interface SlotOp {
        void run(long offset);
    }

    /** Nothing before a timed slot operation. */
    private static final SlotOp NOTHING = at -> {};

    /** Measures the three on {@code memory}, with slots of {@code slotBytes}, warmed up and timed as {@code w}. */
    static ContentCosts measure(final NativeMemory memory, final long slotBytes, final Warmed w) {
        final MemoryRegion region = memory.allocate("content", slotBytes * SLOTS);
        final MemoryRegion l1 = memory.allocate("content-l1", slotBytes * SLOTS);
        try {
            final long stamp = best(slotBytes, w, NOTHING, at -> memory.stamp(region, at, slotBytes, at + 1));
            final long checksum = best(slotBytes, w, NOTHING, at -> memory.checksum(region, at, slotBytes));
            final long verify = best(slotBytes, w, NOTHING, at -> {
                if (memory.firstMismatch(region, at, slotBytes, at + 1) >= 0) {
                    throw new IllegalStateException("a stamped slot at " + at + " does not check");
                }
            });
            final long copied = best(slotBytes, w, at -> memory.copy(region, at, l1, at, slotBytes),
                at -> memory.checksum(l1, at, slotBytes));
            return new ContentCosts(checksum, stamp, verify, copied);
        } finally {
            memory.free(l1);
            memory.free(region);
        }
    }

    /**
     * Bandwidth of {@code op} over the 64 slots, warmed up and timed as {@code w}, timing only {@code op} on each slot
     * right after {@code before} (untimed) ran on it: a store checksums each slot of a span right after copying the
     * span into L1 (in a real run of pr90-evict-small, JFR samples put its checksums at about 8 GB/s, where slots not
     * touched just before gave 4.6 to 6.4 GB/s).
     */
    private static long best(final long slotBytes, final Warmed w, final SlotOp before, final SlotOp op) {
        final double bestNs = w.best(() -> {
            long ns = 0;
            for (int i = 0; i < SLOTS; i++) {
                before.run(i * slotBytes);
                final long t0 = System.nanoTime();
                op.run(i * slotBytes);
                ns += System.nanoTime() - t0;
            }
            return ns;
        });
        return Math.round(SLOTS * (double) slotBytes * 1e9 / Math.max(1, bestNs));
    }
}
