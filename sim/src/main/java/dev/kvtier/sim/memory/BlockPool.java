package dev.kvtier.sim.memory;

import java.util.Arrays;

/**
 * The blocks one {@link RunBlocks} dropped, kept for its next new block (a crash that tears a write into thousands
 * of runs, then a revert, would otherwise allocate and zero them anew): a stack, so the reuse order is fixed. What a
 * pooled block held is stale and never read. At most {@value #MAX_BLOCKS} blocks are kept.
 */
final class BlockPool {
    /** Blocks kept at most (4 MiB of 4 KiB blocks); the rest are left to the collector. */
    static final int MAX_BLOCKS = 1024;

    private final int blockLongs;
    private long[][] free = new long[16][];
    private int count;

    BlockPool(final int blockLongs) {
        this.blockLongs = blockLongs;
    }

    /** A block of {@code blockLongs} longs, reused when one is free (its content is then stale). */
    long[] take() {
        if (count == 0) {
            return new long[blockLongs];
        }
        final long[] b = free[--count];
        free[count] = null;
        return b;
    }

    /** Keeps {@code block} (no longer in any map) for a later {@link #take}. */
    void release(final long[] block) {
        if (count == MAX_BLOCKS) {
            return;
        }
        if (count == free.length) {
            free = Arrays.copyOf(free, count * 2);
        }
        free[count++] = block;
    }

    int size() {
        return count;
    }
}
