package dev.kvtier.harness.check;

import dev.kvtier.core.config.L2Admission;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.util.KeyTable;
import dev.kvtier.core.util.SlotTable;
import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
import java.util.List;

/**
 * Invariants 11 (which includes: an uncommitted allocation is never visible), 12 (a slot that fails its checksum
 * takes the chunk holding it out of the ring before the next input), 13 (commits only of current allocations, one
 * writer per key; a span the boundary refuses as COMMITTED is of a current, committed allocation) and 14, against a
 * reference model of the directory and of the FIFO slot ring built from events and docs/design/STORAGE-CORE.md
 * section 2: Allocated adds a claim (one writer per key; slot ranges
 * disjoint from every live chunk) at the model's head, Committed publishes it (only a current allocation),
 * ClaimReleased removes an uncommitted claim. The ring: an allocation of n slots takes the slots at head; when {@code
 * head + n} would cross the ring's end (and only then) the tail from head is marked SKIP (RingWrapped from head, to the
 * end), every chunk of the previous lap in it is evicted (WRAP) and head goes to 0; chunks overlapping the placement
 * are evicted (SPACE); evictions for space or wrap take the oldest live chunk. A skip says why truly (claimed,
 * committed, larger than the ring). Every Lookup's answer must equal the model's longest committed prefix of the
 * caller's model. After a restart, head follows the newest recovered chunk. The key map is used for point look-ups
 * only.
 *
 * <p>The model's age order is a list threaded through its chunks, sorted by allocation id (appending is the normal
 * case); its slots are a {@link SlotTable} of start slots, searched no further below a slot than the widest chunk
 * seen. An event costs what it touches, never the number of live chunks.
 */
public final class DirectoryChecker implements Checker {
    /** A live chunk's slots and place in the age order (its key and state are in {@link #byKey}). */
    private static final class Chunk {
        final long allocationId;
        final int startSlot;
        final int slotCount;
        /** Neighbours in allocation-id order among live chunks (null at either end). */
        Chunk older;
        Chunk newer;

        Chunk(final long allocationId, final int startSlot, final int slotCount) {
            this.allocationId = allocationId;
            this.startSlot = startSlot;
            this.slotCount = slotCount;
        }
    }

    /**
     * Live keys with their allocation, model and commit state (the chunk beside them); sized for the ring at the
     * first event (at most a chunk a slot is live, up to {@link KeyTable#PRESIZED_KEYS_MAX}), so it never grows
     * during a run of such a ring.
     */
    private ChunkKeys<Chunk> byKey;
    private SlotTable<Chunk> bySlot;
    private Chunk oldest;
    private Chunk newest;
    private int widestSlots = 1;
    private int model;
    private int slotsPerKey;
    private int head;
    private int ringSlots = -1;
    /** The keys seen once under {@code L2Admission.SECOND_SIGHT}, or null when every key is admitted. */
    private SeenOnceModel seenOnce;
    private boolean admissionKnown;
    /** Chunks a checksum mismatch was found in, which must leave the ring before the next input (rare: a list). */
    private final List<CorruptSlot> corrupt = new ArrayList<>();

    /** A slot that failed its checksum in a load, and the live chunk holding it. */
    private record CorruptSlot(long allocationId, long loadId, long slot) {}

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        if (byKey == null) {
            byKey = new ChunkKeys<>(Math.min(slots(ctx), KeyTable.PRESIZED_KEYS_MAX));
        }
        if (!corrupt.isEmpty() && event instanceof CoreEvent.Input) {
            corruptNotEvicted(ctx, "before the next input");
        }
        switch (event) {
            case CoreEvent.AllocateRequested e -> {
                model = e.modelId();
                slotsPerKey = e.slotsPerKey();
            }
            case CoreEvent.Allocated e -> {
                admitted(ctx, e);
                placed(ctx, e);
                allocated(ctx, e, model);
            }
            case CoreEvent.RingWrapped e -> wrapped(ctx, e);
            case CoreEvent.AllocationSkipped e -> skipped(ctx, e);
            case CoreEvent.Committed e -> {
                final int p = find(e.key());
                if (!(p >= 0 && byKey.allocationId(p) == e.allocationId())) {
                    ctx.fail(Invariant.STALE_NOTHING,
                        "committed allocation " + e.allocationId() + " of " + e.key() + " is not current");
                }
                byKey.commit(p);
            }
            case CoreEvent.LateCommit e -> {
                final int p = find(e.key());
                if (!(p < 0 || byKey.allocationId(p) != e.allocationId())) {
                    ctx.fail(Invariant.STALE_NOTHING,
                        "commit of current allocation " + e.allocationId() + " counted as late");
                }
            }
            case CoreEvent.RingEvicted e -> evicted(ctx, e);
            case CoreEvent.ClaimReleased e -> {
                if (e.released()) {
                    final int p = find(e.ref().key());
                    if (!(p >= 0 && !byKey.committed(p) && byKey.allocationId(p) == e.ref().allocationId())) {
                        ctx.fail(Invariant.STALE_NOTHING,
                            "released claim " + e.ref() + " was not an uncommitted claim");
                    }
                    remove(p);
                }
            }
            case CoreEvent.Lookup e -> lookup(ctx, e);
            case CoreEvent.ChecksumMismatch e -> mismatched(ctx, e);
            case CoreEvent.SpanRejected e when e.reason() == RejectReason.COMMITTED -> {
                final int p = find(e.key());
                if (!(p >= 0 && byKey.allocationId(p) == e.allocationId() && byKey.committed(p))) {
                    ctx.fail(Invariant.STALE_NOTHING, "span of allocation " + e.allocationId() + " of " + e.key()
                        + " rejected as COMMITTED, but the model has it "
                        + (p < 0 || byKey.allocationId(p) != e.allocationId() ? "not current" : "uncommitted"));
                }
            }
            case CoreEvent.ChunkRecovered e -> {
                byKey.commit(allocated(ctx, new CoreEvent.Allocated(0, e.key(), e.allocationId(), e.startSlot(),
                    e.slotCount()), e.modelId()));
                // Recovered chunks come oldest first: head is where the newest ends.
                head = advance(ctx, e.startSlot() + e.slotCount());
            }
            default -> {
                // no effect on the directory
            }
        }
    }

    @Override
    public void atEnd(final CheckContext ctx) {
        if (!corrupt.isEmpty()) {
            corruptNotEvicted(ctx, "by the end of the run");
        }
    }

    /**
     * A slot failed its checksum: the chunk holding it must leave the ring (docs/design/STORAGE-CORE.md 10, CORRUPT;
     * FAULTS-AND-CRASH-SAFETY.md: a corrupt slot is a miss from then on), before the core takes its next input (it
     * does so in the same call, once the failed load is told). Left committed, the key would go on being looked up and
     * loaded, though L2 no longer holds the bytes last stored for it (invariant 12).
     */
    private void mismatched(final CheckContext ctx, final CoreEvent.ChecksumMismatch e) {
        final long slot = e.fileOffset() / ctx.config().slotBytes();
        final Chunk c = highestStartIn(ctx, Math.toIntExact(slot), Math.toIntExact(slot));
        if (c != null && c.startSlot + c.slotCount > slot) {
            corrupt.add(new CorruptSlot(c.allocationId, e.loadId(), slot));
        }
    }

    private void corruptNotEvicted(final CheckContext ctx, final String when) {
        final CorruptSlot s = corrupt.getFirst();
        ctx.fail(Invariant.LOAD_BYTES, "slot " + s.slot() + " failed its checksum in load " + s.loadId()
            + ", but allocation " + s.allocationId() + ", which holds it, did not leave the ring " + when
            + ": a corrupt chunk stays committed");
    }

    /** Adds the allocation's chunk to the model; returns its key's position. */
    private int allocated(final CheckContext ctx, final CoreEvent.Allocated e, final int modelId) {
        if (!(find(e.key()) < 0)) {
            ctx.fail(Invariant.STALE_NOTHING, "second writer for key " + e.key());
        }
        if (!(e.startSlot() >= 0 && e.slotCount() > 0)) {
            ctx.fail(Invariant.RING, "allocation of slots [" + e.startSlot() + ", +" + e.slotCount() + ")");
        }
        final Chunk below = highestStartIn(ctx, e.startSlot(), e.startSlot() + e.slotCount() - 1);
        if (!(below == null || below.startSlot + below.slotCount <= e.startSlot())) {
            ctx.fail(Invariant.RING, "allocation at slot " + e.startSlot() + " overlaps live chunk at "
                + (below == null ? -1 : below.startSlot));
        }
        if (!(e.startSlot() + e.slotCount() <= slots(ctx))) {
            ctx.fail(Invariant.RING, "allocation past the ring's end");
        }
        final Chunk c = new Chunk(e.allocationId(), e.startSlot(), e.slotCount());
        linkByAge(c);
        slotTable(ctx).put(c.startSlot, c);
        widestSlots = Math.max(widestSlots, c.slotCount);
        return byKey.insert(e.key().hi(), e.key().lo(), e.allocationId(), modelId, c);
    }

    /**
     * The live chunk with the highest start at or below {@code last} among those that could reach {@code first}
     * (one starting lower ends before it), or null: the floor entry of a map by start slot, where it matters.
     */
    private Chunk highestStartIn(final CheckContext ctx, final int first, final int last) {
        final SlotTable<Chunk> table = slotTable(ctx);
        final int found = table.highestIn((int) Math.max(0, (long) first - widestSlots + 1), last);
        return found < 0 ? null : table.get(found);
    }

    private SlotTable<Chunk> slotTable(final CheckContext ctx) {
        if (bySlot == null) {
            bySlot = new SlotTable<>(slots(ctx));
        }
        return bySlot;
    }

    /** Inserts into the age list in allocation-id order (after any equal id); normally at the newest end. */
    private void linkByAge(final Chunk c) {
        Chunk after = newest;
        while (after != null && after.allocationId > c.allocationId) {
            after = after.older;
        }
        c.older = after;
        c.newer = after == null ? oldest : after.newer;
        if (c.older == null) {
            oldest = c;
        } else {
            c.older.newer = c;
        }
        if (c.newer == null) {
            newest = c;
        } else {
            c.newer.older = c;
        }
    }

    private void evicted(final CheckContext ctx, final CoreEvent.RingEvicted e) {
        final int p = find(e.key());
        if (!(p >= 0 && byKey.allocationId(p) == e.allocationId())) {
            ctx.fail(Invariant.RING, "evicted chunk " + e.allocationId() + " is not live");
        }
        final Chunk c = byKey.chunk(p);
        if (e.reason() == RingEvictReason.SPACE || e.reason() == RingEvictReason.WRAP) {
            if (!(oldest.allocationId == e.allocationId())) {
                ctx.fail(Invariant.RING,
                    "ring evicted allocation " + e.allocationId() + " but the oldest live one is "
                        + oldest.allocationId);
            }
        }
        if (e.reason() == RingEvictReason.WRAP && !(head + slotsPerKey > slots(ctx) && c.startSlot >= head)) {
            ctx.fail(Invariant.RING, "chunk at slot " + c.startSlot + " evicted by a wrap, but an allocation of "
                + slotsPerKey + " slots at head " + head + " of " + slots(ctx) + " does not skip it");
        }
        if (e.reason() == RingEvictReason.SPACE
            && !(c.startSlot < head + slotsPerKey && head < c.startSlot + c.slotCount)) {
            ctx.fail(Invariant.RING, "chunk [" + c.startSlot + ", +" + c.slotCount + ") evicted for space, but the "
                + "next placement is [" + head + ", +" + slotsPerKey + ")");
        }
        remove(p);
    }

    /** An allocation is placed at head, which it may not cross the ring's end from; head moves past it. */
    private void placed(final CheckContext ctx, final CoreEvent.Allocated e) {
        if (!(e.slotCount() == slotsPerKey)) {
            ctx.fail(Invariant.RING, "allocated " + e.slotCount() + " slots, the request asked " + slotsPerKey);
        }
        if (!(head + e.slotCount() <= slots(ctx))) {
            ctx.fail(Invariant.RING, "an allocation of " + e.slotCount() + " slots at head " + head + " crosses the "
                + "ring's end (" + slots(ctx) + " slots) without a wrap");
        }
        if (!(e.startSlot() == head)) {
            ctx.fail(Invariant.RING, "allocation placed at slot " + e.startSlot() + ", the ring's head is " + head);
        }
        head = advance(ctx, e.startSlot() + e.slotCount());
    }

    /** A wrap happens exactly when the allocation does not fit before the end; the SKIP region holds no live chunk. */
    private void wrapped(final CheckContext ctx, final CoreEvent.RingWrapped e) {
        if (!(head + slotsPerKey > slots(ctx))) {
            ctx.fail(Invariant.RING, "the ring wrapped at slot " + e.fromSlot() + ", but " + slotsPerKey
                + " slots fit at head " + head + " of " + slots(ctx));
        }
        if (!(e.fromSlot() == head && e.slotCount() == slots(ctx) - head)) {
            ctx.fail(Invariant.RING, "the wrap skipped [" + e.fromSlot() + ", +" + e.slotCount() + "), the tail from"
                + " head is [" + head + ", +" + (slots(ctx) - head) + ")");
        }
        final int found = slotTable(ctx).lowestIn(head, slots(ctx) - 1);
        final Integer left = found < 0 ? null : found;
        if (!(left == null)) {
            ctx.fail(Invariant.RING, "the wrap left the chunk at slot " + left + " of the previous lap live in the "
                + "SKIP region");
        }
        head = 0;
    }

    /** The model of second-sight admission (made at the first allocation): an allocation must be a second sight. */
    private void admitted(final CheckContext ctx, final CoreEvent.Allocated e) {
        if (seenOnce(ctx) != null && !seenOnce.admits(e.key())) {
            ctx.fail(Invariant.STALE_NOTHING,
                e.key() + " was allocated at its first sight under second-sight admission");
        }
    }

    private SeenOnceModel seenOnce(final CheckContext ctx) {
        if (!admissionKnown) {
            admissionKnown = true;
            seenOnce = ctx.config().l2Admission() == L2Admission.SECOND_SIGHT ? new SeenOnceModel(slots(ctx)) : null;
        }
        return seenOnce;
    }

    /** A skip must be for the reason the model sees: the key is claimed, or committed, or n exceeds the ring. */
    private void skipped(final CheckContext ctx, final CoreEvent.AllocationSkipped e) {
        final int p = find(e.key());
        final boolean ok = switch (e.reason()) {
            case CLAIMED -> p >= 0 && !byKey.committed(p);
            case COMMITTED -> p >= 0 && byKey.committed(p);
            case TOO_LARGE -> p < 0 && (slotsPerKey <= 0 || slotsPerKey > slots(ctx));
            case NOT_ADMITTED -> p < 0 && slotsPerKey > 0 && slotsPerKey <= slots(ctx) && seenOnce(ctx) != null
                && !seenOnce.admits(e.key());
        };
        if (!ok) {
            ctx.fail(Invariant.STALE_NOTHING, "allocation of " + e.key() + " skipped as " + e.reason() + ", but the "
                + "model has " + (p < 0 ? "no live chunk" : byKey.committed(p) ? "it committed" : "it claimed")
                + " and " + slotsPerKey + " of " + slots(ctx) + " slots asked");
        }
    }

    /** Head after a chunk ending at {@code end}: at the ring's end it goes back to 0. */
    private int advance(final CheckContext ctx, final int end) {
        return end == slots(ctx) ? 0 : end;
    }

    private int slots(final CheckContext ctx) {
        if (ringSlots < 0) {
            ringSlots = SpecModel.ringSlots(ctx.config());
        }
        return ringSlots;
    }

    private void lookup(final CheckContext ctx, final CoreEvent.Lookup e) {
        int expected = 0;
        for (final PrefixKey k : e.keys()) {
            final int p = find(k);
            if (p < 0 || !byKey.committed(p) || byKey.modelId(p) != e.modelId()) {
                break;
            }
            expected++;
        }
        if (!(expected == e.prefixLength())) {
            ctx.fail(Invariant.LOOKUP_PREFIX, "lookup of " + e.keys().size() + " keys answered " + e.prefixLength()
                + ", the committed prefix of model " + e.modelId() + " is " + expected);
        }
    }

    /** The position of {@code key}'s live chunk in the model's key map, or -1. */
    private int find(final PrefixKey key) {
        return byKey.find(key.hi(), key.lo());
    }

    /** Removes the live chunk whose key is at {@code position} of the key map. */
    private void remove(final int position) {
        final Chunk c = byKey.chunk(position);
        byKey.remove(position);
        if (!corrupt.isEmpty()) {
            corrupt.removeIf(s -> s.allocationId() == c.allocationId);
        }
        if (c.older == null) {
            oldest = c.newer;
        } else {
            c.older.newer = c.newer;
        }
        if (c.newer == null) {
            newest = c.older;
        } else {
            c.newer.older = c.older;
        }
        c.older = null;
        c.newer = null;
        bySlot.remove(c.startSlot);
    }
}
