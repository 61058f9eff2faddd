package dev.kvtier.sim.memory;

import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * {@link RunBlocks}' storage: the block list (each block an array of up to {@value #RUNS_PER_BLOCK} runs of
 * {@value #LONGS} longs, with its size and first start), the blocks' pool ({@link BlockPool}) and copy on write.
 * Two maps may share block arrays ({@link #shareFrom}: a crash's revert of the visible image to the durable one
 * costs the block list, not the runs); a shared block is copied ({@link #own}) before either map changes it. Blocks
 * a map drops go to its pool (which a device's two images share) and come back for a next new block: what a pooled
 * block held is never read, since a block's runs beyond its size are always written before they are counted.
 */
abstract sealed class BlockList permits RunBlocks {
    static final int RUNS_PER_BLOCK = 128;
    static final int LONGS = 4;

    long[][] blocks = new long[16][];
    int[] sizes = new int[16];
    long[] firsts = new long[16];
    /** Whether block b's array may also be another map's: copied before this map changes it. */
    boolean[] shared = new boolean[16];
    /** Where this map's dropped blocks go and its new ones come from (another map's too: {@link RunMap#sibling}). */
    final BlockPool pool;
    int blockCount;
    int size;
    /** False only while no run of no bytes can be here (one was never written since the map last lost them all). */
    boolean mayHoldEmpty;
    /** The old runs {@link RunBlocks#insertAllAfter} sets aside while new ones take their place (reused). */
    long[] spill = new long[0];
    /** The block the last look-up landed in: tried first, as runs are mostly visited in order. */
    int hint;

    BlockList(final BlockPool pool) {
        this.pool = pool;
    }

    /**
     * Becomes a copy of {@code src}, run for run, sharing its block arrays (both maps copy a shared block before
     * changing it): the cost is the block list's. Without empty runs in {@code src} ({@link #mayHoldEmpty}), the
     * same runs as {@link RunBlocks#copyNonEmpty} gives.
     */
    void shareFrom(final BlockList src) {
        if (src == this) {
            return;
        }
        releaseAll(Math.max(16, src.blockCount));
        System.arraycopy(src.blocks, 0, blocks, 0, src.blockCount);
        System.arraycopy(src.sizes, 0, sizes, 0, src.blockCount);
        System.arraycopy(src.firsts, 0, firsts, 0, src.blockCount);
        Arrays.fill(shared, 0, src.blockCount, true);
        Arrays.fill(src.shared, 0, src.blockCount, true);
        blockCount = src.blockCount;
        size = src.size;
        mayHoldEmpty = src.mayHoldEmpty;
    }

    /**
     * Drops every run of each of {@code lists} and gives their blocks, and their pools', to the thread's reserve (for
     * the next run in this JVM), each block once. Only for lists that share blocks with none but one another (a
     * device's two images: {@link #shareFrom} is their only sharing); they are empty afterwards.
     */
    static void recycle(final BlockList... lists) {
        final BlockPool reserve = BlockPool.reserve();
        final Set<long[]> given = Collections.newSetFromMap(new IdentityHashMap<>());
        for (final BlockList l : lists) {
            for (int b = 0; b < l.blockCount; b++) {
                if (given.add(l.blocks[b])) {
                    reserve.release(l.blocks[b]);
                }
            }
        }
        for (final BlockList l : lists) {
            l.pool.drainTo(reserve);
            Arrays.fill(l.blocks, 0, l.blockCount, null);
            Arrays.fill(l.shared, 0, l.blockCount, false);
            l.blockCount = 0;
            l.size = 0;
            l.hint = 0;
            l.mayHoldEmpty = false;
        }
    }

    /** Drops every run (own blocks to the pool) and makes room for {@code capacity} blocks. */
    void releaseAll(final int capacity) {
        for (int b = 0; b < blockCount; b++) {
            if (!shared[b]) {
                pool.release(blocks[b]);
            }
        }
        if (capacity > blocks.length) {
            blocks = new long[capacity][];
            sizes = new int[capacity];
            firsts = new long[capacity];
            shared = new boolean[capacity];
        } else {
            Arrays.fill(blocks, 0, blockCount, null);
            Arrays.fill(shared, 0, blockCount, false);
        }
        blockCount = 0;
        size = 0;
        hint = 0;
        mayHoldEmpty = false;
    }

    /** Block {@code b}'s array, first copied if it is shared: the array this map may change. */
    long[] own(final int b) {
        if (shared[b]) {
            final long[] copy = pool.take();
            System.arraycopy(blocks[b], 0, copy, 0, sizes[b] * LONGS);
            blocks[b] = copy;
            shared[b] = false;
        }
        return blocks[b];
    }

    /** Drops blocks {@code [from, to)} (their runs already counted out of {@link #size}, or about to be). */
    void removeBlocks(final int from, final int to) {
        if (from >= to) {
            return;
        }
        for (int b = from; b < to; b++) {
            size -= sizes[b];
            if (!shared[b]) {
                pool.release(blocks[b]);
            }
        }
        System.arraycopy(blocks, to, blocks, from, blockCount - to);
        System.arraycopy(sizes, to, sizes, from, blockCount - to);
        System.arraycopy(firsts, to, firsts, from, blockCount - to);
        System.arraycopy(shared, to, shared, from, blockCount - to);
        Arrays.fill(blocks, blockCount - (to - from), blockCount, null);
        Arrays.fill(shared, blockCount - (to - from), blockCount, false);
        blockCount -= to - from;
    }

    void splitBlock(final int b) {
        addBlock(b + 1);
        final int half = RUNS_PER_BLOCK / 2;
        System.arraycopy(blocks[b], half * LONGS, blocks[b + 1], 0, half * LONGS);
        sizes[b + 1] = sizes[b] - half;
        sizes[b] = half;
        firsts[b + 1] = blocks[b + 1][0];
    }

    /** Adds {@code n} empty blocks at {@code at}, shifting the block list once. */
    void addBlocks(final int at, final int n) {
        if (n <= 0) {
            return;
        }
        if (blockCount + n > blocks.length) {
            final int capacity = Math.max(blocks.length * 2, blockCount + n);
            blocks = Arrays.copyOf(blocks, capacity);
            sizes = Arrays.copyOf(sizes, capacity);
            firsts = Arrays.copyOf(firsts, capacity);
            shared = Arrays.copyOf(shared, capacity);
        }
        System.arraycopy(blocks, at, blocks, at + n, blockCount - at);
        System.arraycopy(sizes, at, sizes, at + n, blockCount - at);
        System.arraycopy(firsts, at, firsts, at + n, blockCount - at);
        System.arraycopy(shared, at, shared, at + n, blockCount - at);
        for (int k = at; k < at + n; k++) {
            blocks[k] = pool.take();
            sizes[k] = 0;
            shared[k] = false;
        }
        blockCount += n;
    }

    void addBlock(final int at) {
        addBlocks(at, 1);
    }

    /** A scratch array of at least {@code longs} longs (reused: single-threaded, held only within one call). */
    long[] spill(final int longs) {
        if (spill.length < longs) {
            spill = new long[Math.max(longs, 2 * spill.length)];
        }
        return spill;
    }

    static long cursor(final int block, final int index) {
        return (long) block << 32 | index;
    }

    static int block(final long cursor) {
        return (int) (cursor >>> 32);
    }

    static int index(final long cursor) {
        return (int) cursor;
    }
}
