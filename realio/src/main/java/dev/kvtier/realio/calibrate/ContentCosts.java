package dev.kvtier.realio.calibrate;

import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.realio.memory.NativeMemory;

/**
 * What a real run pays per byte of content on its one thread besides copies, measured on slot-sized pieces of
 * native memory (huge pages, as a run's memory): the core's slot checksum (XXH3-64, {@link NativeMemory#checksum}),
 * the workload's fill of a computed slot with its key's pattern ({@link NativeMemory#stamp}) and its check of a loaded
 * slot ({@link NativeMemory#firstMismatch}). Each figure is the best of several rounds over 64 slots (a region much
 * larger than the caches, as a run's slots are), after a warm-up round.
 *
 * @param checksumBytesPerSec slot checksum bandwidth
 * @param stampBytesPerSec    fill bandwidth
 * @param verifyBytesPerSec   check bandwidth
 */
public record ContentCosts(long checksumBytesPerSec, long stampBytesPerSec, long verifyBytesPerSec) {
    private static final int SLOTS = 64;

    public ContentCosts {
        if (checksumBytesPerSec <= 0 || stampBytesPerSec <= 0 || verifyBytesPerSec <= 0) {
            throw new IllegalArgumentException("content costs are positive bandwidths: " + checksumBytesPerSec + ", "
                + stampBytesPerSec + ", " + verifyBytesPerSec);
        }
    }

    private interface SlotOp {
        void run(long offset);
    }

    /** Measures the three on {@code memory}, with slots of {@code slotBytes}, best of {@code rounds}. */
    public static ContentCosts measure(final NativeMemory memory, final long slotBytes, final int rounds) {
        final MemoryRegion region = memory.allocate("content", slotBytes * SLOTS);
        try {
            final long stamp = best(slotBytes, rounds, at -> memory.stamp(region, at, slotBytes, at + 1));
            final long checksum = best(slotBytes, rounds, at -> memory.checksum(region, at, slotBytes));
            final long verify = best(slotBytes, rounds, at -> {
                if (memory.firstMismatch(region, at, slotBytes, at + 1) >= 0) {
                    throw new IllegalStateException("a stamped slot at " + at + " does not check");
                }
            });
            return new ContentCosts(checksum, stamp, verify);
        } finally {
            memory.free(region);
        }
    }

    private static long best(final long slotBytes, final int rounds, final SlotOp op) {
        long bestNs = Long.MAX_VALUE;
        for (int r = 0; r < rounds + 1; r++) {
            final long t0 = System.nanoTime();
            for (int i = 0; i < SLOTS; i++) {
                op.run(i * slotBytes);
            }
            final long ns = System.nanoTime() - t0;
            if (r > 0) {
                bestNs = Math.min(bestNs, ns);
            }
        }
        return Math.round(SLOTS * (double) slotBytes * 1e9 / Math.max(1, bestNs));
    }
}
