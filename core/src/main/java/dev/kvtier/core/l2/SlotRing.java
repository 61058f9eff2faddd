package dev.kvtier.core.l2;

import dev.kvtier.core.util.SlotTable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The L2 slot ring: FIFO placement of contiguous slot runs. Allocation takes slots at {@code head}; a run that
 * would cross the end marks the tail region SKIP and wraps {@code head} to 0; when space is short the oldest
 * allocated chunk is evicted (never LRU). Live chunks are kept in allocation order, so eviction order is allocation
 * order by construction, and by start slot, so disjointness is checked on every placement.
 *
 * <p>Allocation order is a list threaded through the chunks themselves ({@link Chunk#older}, {@link Chunk#newer});
 * start slots are a {@link SlotTable}. A placement or a removal costs the slots it covers plus the largest chunk
 * ever placed (the reach of a search for the chunk below a slot), never the number of live chunks, and nothing is
 * boxed.
 */
final class SlotRing {
    private final int slotCount;
    private final SlotTable<Chunk> bySlot;
    private Chunk oldest;
    private Chunk newest;
    private int live;
    /** The largest chunk ever placed: a chunk that covers a slot starts at most this many slots before it, minus 1. */
    private int widestSlots = 1;
    private int head;

    SlotRing(final int slotCount) {
        if (slotCount <= 0) {
            throw new IllegalArgumentException("ring needs at least one slot, got " + slotCount);
        }
        this.slotCount = slotCount;
        this.bySlot = new SlotTable<>(slotCount);
    }

    int slotCount() {
        return slotCount;
    }

    int head() {
        return head;
    }

    int liveChunks() {
        return live;
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
            while (oldest != null && oldest.startSlot >= skipFrom) {
                onEvict.evicted(oldest, true);
            }
            onWrap.accept(skipFrom);
            head = 0;
        }
        while (oldest != null && oldest.overlaps(head, slots)) {
            onEvict.evicted(oldest, false);
        }
        final Chunk below = highestStartIn(head, head + slots - 1);
        if (below != null && below.overlaps(head, slots)) {
            throw new IllegalStateException("ring invariant broken: chunk at slot " + below.startSlot
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
        link(chunk);
        head = chunk.endSlot() == slotCount ? 0 : chunk.endSlot();
        assert head >= 0 : "ring head " + head;
        assert head < slotCount : "ring head " + head + " past the ring's " + slotCount;
    }

    /** Removes a chunk (evicted or released); its slots are free once head passes them. */
    void remove(final Chunk chunk) {
        if (chunk.startSlot < 0 || chunk.startSlot >= slotCount || bySlot.get(chunk.startSlot) != chunk) {
            throw new IllegalStateException("chunk " + chunk.allocationId + " is not live in the ring");
        }
        bySlot.remove(chunk.startSlot);
        if (chunk.older == null) {
            oldest = chunk.newer;
        } else {
            chunk.older.newer = chunk.newer;
        }
        if (chunk.newer == null) {
            newest = chunk.older;
        } else {
            chunk.newer.older = chunk.older;
        }
        chunk.older = null;
        chunk.newer = null;
        live--;
        assert live == bySlot.size() : "ring views disagree: " + live + " vs " + bySlot.size();
    }

    /** Live chunks overlapping {@code [fromSlot, fromSlot + count)}, by start slot. */
    List<Chunk> overlapping(final int fromSlot, final int count) {
        final List<Chunk> out = new ArrayList<>();
        // Chunks are disjoint: only one that starts at most widestSlots - 1 slots before fromSlot can cover it.
        final long last = Math.min((long) fromSlot + count - 1, slotCount - 1);
        int slot = bySlot.lowestIn((int) Math.max(0, (long) fromSlot - widestSlots + 1), (int) last);
        while (slot >= 0) {
            final Chunk c = bySlot.get(slot);
            if (c.overlaps(fromSlot, count)) {
                out.add(c);
            }
            slot = slot == last ? -1 : bySlot.lowestIn(slot + 1, (int) last);
        }
        return out;
    }

    /** The live chunk that starts at slot {@code slot}, or null (none does, or the slot is past the ring). */
    Chunk startingAt(final int slot) {
        return slot >= 0 && slot < slotCount ? bySlot.get(slot) : null;
    }

    /**
     * The live chunk covering slot {@code slot}, or null: what {@link #overlapping}{@code (slot, 1)} holds, without a
     * list (chunks are disjoint, so only the last one starting at or before the slot can cover it).
     */
    Chunk covering(final int slot) {
        if (slot < 0 || slot >= slotCount) {
            throw new IllegalArgumentException("slot " + slot + " not in [0, " + slotCount + ")");
        }
        final int start = bySlot.highestIn((int) Math.max(0, (long) slot - widestSlots + 1), slot);
        if (start < 0) {
            return null;
        }
        final Chunk c = bySlot.get(start);
        return c.overlaps(slot, 1) ? c : null;
    }

    /** The oldest live chunk (the others follow through {@link Chunk#newer}), or null when none is live. */
    Chunk oldest() {
        return oldest;
    }

    /** Live chunks in allocation order (oldest first). */
    List<Chunk> inAgeOrder() {
        final List<Chunk> out = new ArrayList<>(live);
        for (Chunk c = oldest; c != null; c = c.newer) {
            out.add(c);
        }
        return out;
    }

    /**
     * The live chunk with the highest start slot at or below {@code last} among those that could cover a slot of
     * {@code [first, last]}, or null (one starting lower ends before {@code first}).
     */
    private Chunk highestStartIn(final int first, final int last) {
        final int found = bySlot.highestIn((int) Math.max(0, (long) first - widestSlots + 1), last);
        return found < 0 ? null : bySlot.get(found);
    }

    private void link(final Chunk chunk) {
        if (chunk.older != null || chunk.newer != null || oldest == chunk) {
            throw new IllegalStateException("chunk " + chunk.allocationId + " is already live in the ring");
        }
        if (bySlot.put(chunk.startSlot, chunk) != null) {
            throw new IllegalStateException("two live chunks start at slot " + chunk.startSlot);
        }
        chunk.older = newest;
        if (newest == null) {
            oldest = chunk;
        } else {
            newest.newer = chunk;
        }
        newest = chunk;
        live++;
        widestSlots = Math.max(widestSlots, chunk.slotCount);
        assert live == bySlot.size() : "ring views disagree: " + live + " vs " + bySlot.size();
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
        if (live != 0) {
            throw new IllegalStateException("restore into a ring that holds " + live + " chunks");
        }
        for (final Chunk c : chunks) {
            if (c.endSlot() > slotCount) {
                throw new IllegalArgumentException("recovered chunk " + c.allocationId + " ends at slot " + c.endSlot()
                    + ", past the ring's " + slotCount);
            }
            // The widest chunk so far must cover this one too, for the overlap search to see chunks below it.
            widestSlots = Math.max(widestSlots, c.slotCount);
            if (!overlapping(c.startSlot, c.slotCount).isEmpty()) {
                throw new IllegalArgumentException("recovered chunk " + c.allocationId + " overlaps another");
            }
            link(c);
            head = c.endSlot() == slotCount ? 0 : c.endSlot();
        }
    }
}
