package dev.kvtier.sim.memory;

import java.util.Arrays;

/**
 * The blocks one {@link RunBlocks} dropped (or a device's two images: {@link RunMap#sibling}), kept for its next new
 * block (a crash that tears a write into thousands of runs, then a revert, would otherwise allocate and zero them
 * anew): a stack, so the reuse order is fixed. When it has none, a block comes from the thread's reserve: the blocks
 * of the maps a finished run gave back ({@link RunMap#recycle}), so the next run in this JVM (an exploration's next
 * seed) does not allocate them again. What a pooled block held is stale and never read: a block's runs beyond its
 * size are always written before they are counted, so nothing of an earlier run or map can show.
 */
final class BlockPool {
    /** Blocks one pool keeps at most (4 MiB of 4 KiB blocks); the rest are left to the collector. */
    static final int MAX_BLOCKS = 1024;
    /** Blocks the thread's reserve keeps at most (32 MiB of 4 KiB blocks). */
    static final int MAX_RESERVE_BLOCKS = 8192;
    /** Each thread's reserve (a simulation is single-threaded: the reserve is never shared between threads). */
    private static final ThreadLocal<BlockPool> RESERVE = ThreadLocal.withInitial(
        () -> new BlockPool(BlockList.RUNS_PER_BLOCK * BlockList.LONGS, MAX_RESERVE_BLOCKS, false));

    private final int blockLongs;
    private final int maxBlocks;
    private final boolean drawsOnReserve;
    private long[][] free = new long[16][];
    private int count;

    BlockPool(final int blockLongs) {
        this(blockLongs, MAX_BLOCKS, true);
    }

    private BlockPool(final int blockLongs, final int maxBlocks, final boolean drawsOnReserve) {
        this.blockLongs = blockLongs;
        this.maxBlocks = maxBlocks;
        this.drawsOnReserve = drawsOnReserve;
    }

    /** The calling thread's reserve. */
    static BlockPool reserve() {
        return RESERVE.get();
    }

    /** A block of {@code blockLongs} longs, reused when one is free here or in the reserve (its content stale). */
    long[] take() {
        if (count == 0) {
            if (drawsOnReserve && blockLongs == BlockList.RUNS_PER_BLOCK * BlockList.LONGS) {
                final BlockPool reserve = reserve();
                if (reserve.count > 0) {
                    return reserve.take();
                }
            }
            return new long[blockLongs];
        }
        final long[] b = free[--count];
        free[count] = null;
        return b;
    }

    /** Keeps {@code block} (no longer in any map) for a later {@link #take}. */
    void release(final long[] block) {
        if (count == maxBlocks || block.length != blockLongs) {
            return;
        }
        if (count == free.length) {
            free = Arrays.copyOf(free, count * 2);
        }
        free[count++] = block;
    }

    /** Moves every block kept here to {@code to} (as many as it keeps). */
    void drainTo(final BlockPool to) {
        while (count > 0) {
            to.release(free[--count]);
            free[count] = null;
        }
    }

    int size() {
        return count;
    }
}
