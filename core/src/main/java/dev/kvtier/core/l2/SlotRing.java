package dev.kvtier.core.l2;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The L2 slot ring: FIFO placement of contiguous slot runs. Allocation takes slots at {@code head}; a run that
 * would cross the end marks the tail region SKIP and wraps {@code head} to 0; when space is short the oldest
 * allocated chunk is evicted (never LRU). Live chunks are kept in allocation order, so eviction order is allocation
 * order by construction, and by start slot, so disjointness is checked on every placement.
 */
final class SlotRing {
    private final int slotCount;
    private final LinkedHashMap<Long, Chunk> byAge = new LinkedHashMap<>();
    private final TreeMap<Integer, Chunk> bySlot = new TreeMap<>();
    private int head;

    SlotRing(final int slotCount) {
        if (slotCount <= 0) {
            throw new IllegalArgumentException("ring needs at least one slot, got " + slotCount);
        }
        this.slotCount = slotCount;
    }

    int slotCount() {
        return slotCount;
    }

    int head() {
        return head;
    }

    int liveChunks() {
        return byAge.size();
    }

    /**
     * Finds room for {@code slots} slots at head, evicting the oldest chunks as needed (each passed to
     * {@code onEvict} with {@code true} when it was evicted because of a wrap). Returns the start slot; the caller
     * then calls {@link #add}.
     *
     * @param onWrap called with the first skipped slot when the tail is skipped
     */
    int makeRoom(final int slots, final Consumer<Integer> onWrap, final EvictionSink onEvict) {
        if (slots <= 0 || slots > slotCount) {
            throw new IllegalArgumentException("cannot place " + slots + " slots in a ring of " + slotCount);
        }
        if (head + slots > slotCount) {
            final int skipFrom = head;
            // Chunks at or beyond head belong to the previous lap: they are the oldest, evict them in age order.
            while (!byAge.isEmpty() && oldest().startSlot >= skipFrom) {
                onEvict.evicted(oldest(), true);
            }
            onWrap.accept(skipFrom);
            head = 0;
        }
        while (!byAge.isEmpty() && oldest().overlaps(head, slots)) {
            onEvict.evicted(oldest(), false);
        }
        final Map.Entry<Integer, Chunk> below = bySlot.floorEntry(head + slots - 1);
        if (below != null && below.getValue().overlaps(head, slots)) {
            throw new IllegalStateException("ring invariant broken: chunk at slot " + below.getKey()
                + " overlaps placement [" + head + ", +" + slots + ") but is not the oldest");
        }
        assert head >= 0 : "ring head " + head;
        assert head + slots <= slotCount : "placement [" + head + ", +" + slots + ") past the ring's " + slotCount;
        return head;
    }

    /** Adds a chunk placed by {@link #makeRoom}; advances head past it. */
    void add(final Chunk chunk) {
        if (chunk.startSlot != head) {
            throw new IllegalStateException("chunk placed at " + chunk.startSlot + ", head is " + head);
        }
        if (byAge.put(chunk.allocationId, chunk) != null) {
            throw new IllegalStateException("chunk " + chunk.allocationId + " is already live in the ring");
        }
        if (bySlot.put(chunk.startSlot, chunk) != null) {
            throw new IllegalStateException("two live chunks start at slot " + chunk.startSlot);
        }
        head = chunk.endSlot() == slotCount ? 0 : chunk.endSlot();
        assert head >= 0 : "ring head " + head;
        assert head < slotCount : "ring head " + head + " past the ring's " + slotCount;
        assert byAge.size() == bySlot.size() : "ring maps disagree: " + byAge.size() + " vs " + bySlot.size();
    }

    /** Removes a chunk (evicted or released); its slots are free once head passes them. */
    void remove(final Chunk chunk) {
        final Chunk removed = byAge.remove(chunk.allocationId);
        if (removed != chunk) {
            throw new IllegalStateException("chunk " + chunk.allocationId + " is not live in the ring");
        }
        if (bySlot.remove(chunk.startSlot) != chunk) {
            throw new IllegalStateException("chunk " + chunk.allocationId + " is not at slot " + chunk.startSlot);
        }
        assert byAge.size() == bySlot.size() : "ring maps disagree: " + byAge.size() + " vs " + bySlot.size();
    }

    /** Live chunks overlapping {@code [fromSlot, fromSlot + count)}. */
    List<Chunk> overlapping(final int fromSlot, final int count) {
        final List<Chunk> out = new ArrayList<>();
        final Integer first = bySlot.floorKey(fromSlot);
        final Iterator<Chunk> it = bySlot.tailMap(first == null ? fromSlot : first, true).values().iterator();
        while (it.hasNext()) {
            final Chunk c = it.next();
            if (c.startSlot >= fromSlot + count) {
                break;
            }
            if (c.overlaps(fromSlot, count)) {
                out.add(c);
            }
        }
        return out;
    }

    /** Live chunks in allocation order (oldest first). */
    List<Chunk> inAgeOrder() {
        return new ArrayList<>(byAge.values());
    }

    private Chunk oldest() {
        return byAge.firstEntry().getValue();
    }

    /** Receives each chunk the ring must evict; it must {@link #remove} the chunk before returning. */
    @FunctionalInterface
    interface EvictionSink {
        void evicted(Chunk chunk, boolean wrap);
    }

    /**
     * Rebuilds the ring from recovered chunks in allocation order (oldest first); head goes just past the newest.
     * Chunks must be disjoint; the ring must be empty.
     */
    void restore(final List<Chunk> chunks) {
        if (!byAge.isEmpty()) {
            throw new IllegalStateException("restore into a ring that holds " + byAge.size() + " chunks");
        }
        for (final Chunk c : chunks) {
            if (c.endSlot() > slotCount) {
                throw new IllegalArgumentException("recovered chunk " + c.allocationId + " ends at slot " + c.endSlot()
                    + ", past the ring's " + slotCount);
            }
            if (!overlapping(c.startSlot, c.slotCount).isEmpty()) {
                throw new IllegalArgumentException("recovered chunk " + c.allocationId + " overlaps another");
            }
            byAge.put(c.allocationId, c);
            bySlot.put(c.startSlot, c);
            head = c.endSlot() == slotCount ? 0 : c.endSlot();
        }
    }
}
