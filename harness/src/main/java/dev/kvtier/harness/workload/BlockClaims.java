package dev.kvtier.harness.workload;

import dev.kvtier.core.value.AllocationRef;
import java.util.Arrays;
import java.util.List;

/**
 * The allocations one request claimed, by the block each is for, in block order (what a {@code TreeMap<Integer,
 * AllocationRef>} keeps): two parallel arrays sorted by block, made at the first claim for as many blocks as the
 * request has, so a request's 512 claims cost two arrays, not a boxed block and a tree entry each. Claims normally come
 * in block order (appended); a claim for a lower block (a reallocation after a failed load) is inserted in place, and
 * a claim for a block already held replaces it. Not thread-safe.
 */
final class BlockClaims {
    private final int maxBlocks;
    private int[] blocks;
    private AllocationRef[] refs;
    private int count;

    /** Holds none; {@code maxBlocks}: the request's blocks (no more claims than that, normally). */
    BlockClaims(final int maxBlocks) {
        this.maxBlocks = Math.max(1, maxBlocks);
    }

    /** Claims held. */
    int size() {
        return count;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** The block of claim {@code i} (0 to {@code size() - 1}, in block order). */
    int block(final int i) {
        return blocks[checkIndex(i)];
    }

    /** The allocation of claim {@code i} (0 to {@code size() - 1}, in block order). */
    AllocationRef ref(final int i) {
        return refs[checkIndex(i)];
    }

    /** The allocation claimed for {@code block}, or null. */
    AllocationRef get(final int block) {
        final int i = count == 0 ? -1 : Arrays.binarySearch(blocks, 0, count, block);
        return i >= 0 ? refs[i] : null;
    }

    /** Holds {@code ref} (not null) for {@code block}, in place of what the block held. */
    void put(final int block, final AllocationRef ref) {
        if (ref == null) {
            throw new IllegalArgumentException("null claim for block " + block);
        }
        if (blocks == null) {
            blocks = new int[maxBlocks];
            refs = new AllocationRef[maxBlocks];
        }
        final int found = count == 0 || block > blocks[count - 1] ? -(count + 1)
            : Arrays.binarySearch(blocks, 0, count, block);
        if (found >= 0) {
            refs[found] = ref;
            return;
        }
        final int at = -(found + 1);
        if (count == blocks.length) {
            blocks = Arrays.copyOf(blocks, 2 * count);
            refs = Arrays.copyOf(refs, 2 * count);
        }
        System.arraycopy(blocks, at, blocks, at + 1, count - at);
        System.arraycopy(refs, at, refs, at + 1, count - at);
        blocks[at] = block;
        refs[at] = ref;
        count++;
    }

    /** The allocations held, in block order (a copy). */
    List<AllocationRef> values() {
        return count == 0 ? List.of() : List.of(Arrays.copyOf(refs, count));
    }

    /** Holds none (the arrays are kept for the request's next claims). */
    void clear() {
        if (refs != null) {
            Arrays.fill(refs, 0, count, null);
        }
        count = 0;
    }

    private int checkIndex(final int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("claim " + i + " of " + count);
        }
        return i;
    }
}
