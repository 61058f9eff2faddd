package dev.kvtier.core.l1;

import dev.kvtier.core.geometry.Alignment;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The L1 pool's allocator: one region of {@code capacityBytes} allocated at start, leased out first-fit over a
 * free list sorted by offset. Leases are rounded up to 4096; frees coalesce with both neighbours, so fragmentation
 * can make an allocation fail while {@code freeBytes() >= length}.
 */
public final class L1Pool {
    /** Returned by {@link #allocate} when no free block is large enough. */
    public static final long NO_SPACE = -1;

    private final long capacityBytes;
    private final TreeMap<Long, Long> free = new TreeMap<>();
    private long freeBytes;

    public L1Pool(final long capacityBytes) {
        Alignment.requireAligned("pool capacity", capacityBytes);
        if (capacityBytes == 0) {
            throw new IllegalArgumentException("pool capacity must be positive");
        }
        this.capacityBytes = capacityBytes;
        free.put(0L, capacityBytes);
        freeBytes = capacityBytes;
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    public long freeBytes() {
        return freeBytes;
    }

    public long usedBytes() {
        return capacityBytes - freeBytes;
    }

    /** Number of free blocks (1 when nothing is leased). */
    public int freeBlocks() {
        return free.size();
    }

    /** Leases {@code align4096(lengthBytes)} at the lowest offset that fits, or returns {@link #NO_SPACE}. */
    public long allocate(final long lengthBytes) {
        if (lengthBytes <= 0) {
            throw new IllegalArgumentException("lease length must be positive, got " + lengthBytes);
        }
        final long size = Alignment.up(lengthBytes);
        final Iterator<Map.Entry<Long, Long>> it = free.entrySet().iterator();
        while (it.hasNext()) {
            final Map.Entry<Long, Long> block = it.next();
            if (block.getValue() >= size) {
                final long offset = block.getKey();
                final long rest = block.getValue() - size;
                it.remove();
                if (rest > 0) {
                    free.put(offset + size, rest);
                }
                freeBytes -= size;
                assert freeBytes >= 0 : "pool over-leased: " + freeBytes + " B free";
                assert offset + size <= capacityBytes : "lease [" + offset + ", +" + size + ") outside the pool";
                return offset;
            }
        }
        return NO_SPACE;
    }

    /** Returns a lease; merges it with free neighbours. Freeing what is not leased is a bug and throws. */
    public void free(final long offset, final long lengthBytes) {
        final long size = Alignment.up(lengthBytes);
        Alignment.requireAligned("freed offset", offset);
        if (offset + size > capacityBytes || size == 0) {
            throw new IllegalStateException("free outside the pool: [" + offset + ", +" + size + ")");
        }
        final Map.Entry<Long, Long> before = free.floorEntry(offset);
        if (before != null && before.getKey() + before.getValue() > offset) {
            throw new IllegalStateException("double free or overlap at " + offset);
        }
        final Map.Entry<Long, Long> after = free.ceilingEntry(offset);
        if (after != null && after.getKey() < offset + size) {
            throw new IllegalStateException("double free or overlap at " + offset);
        }
        long start = offset;
        long length = size;
        if (before != null && before.getKey() + before.getValue() == offset) {
            start = before.getKey();
            length += before.getValue();
            free.remove(before.getKey());
        }
        if (after != null && after.getKey() == offset + size) {
            length += after.getValue();
            free.remove(after.getKey());
        }
        free.put(start, length);
        freeBytes += size;
        assert freeBytes <= capacityBytes : "pool holds " + freeBytes + " B free of " + capacityBytes;
        assert start + length <= capacityBytes : "free block [" + start + ", +" + length + ") outside the pool";
    }

    /** A copy of the free list, offset to length, for checkers. */
    public NavigableMap<Long, Long> freeList() {
        return new TreeMap<>(free);
    }
}
