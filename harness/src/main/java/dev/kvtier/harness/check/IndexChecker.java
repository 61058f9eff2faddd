package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.geometry.PrefixKey;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Invariants 11 (which includes: an uncommitted allocation is never visible), 13 (commits only of current
 * allocations, one writer per key) and 14, against a reference model of the index
 * and ring built from events: Allocated adds a claim (one writer per key; slot ranges disjoint from every live
 * chunk), Committed publishes it (only a current allocation), RingEvicted for space or wrap must take the oldest
 * live chunk, ClaimReleased removes an uncommitted claim. Every Lookup's answer must equal the model's longest
 * committed prefix of the caller's model. The key map is used for point look-ups only.
 */
public final class IndexChecker implements Checker {
    private static final class Chunk {
        final PrefixKey key;
        final long allocationId;
        final int modelId;
        final int startSlot;
        final int slotCount;
        boolean committed;

        Chunk(final PrefixKey key, final long allocationId, final int modelId, final int startSlot,
              final int slotCount) {
            this.key = key;
            this.allocationId = allocationId;
            this.modelId = modelId;
            this.startSlot = startSlot;
            this.slotCount = slotCount;
        }
    }

    private final Map<PrefixKey, Chunk> byKey = new HashMap<>();
    private final TreeMap<Long, Chunk> byAge = new TreeMap<>();
    private final TreeMap<Integer, Chunk> bySlot = new TreeMap<>();
    private int model;

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.AllocateRequested e -> model = e.modelId();
            case CoreEvent.Allocated e -> allocated(ctx, e, model);
            case CoreEvent.Committed e -> {
                final Chunk c = byKey.get(e.key());
                if (!(c != null && c.allocationId == e.allocationId())) {
                    ctx.fail(Invariant.STALE_NOTHING,
                        "committed allocation " + e.allocationId() + " of " + e.key() + " is not current");
                }
                c.committed = true;
            }
            case CoreEvent.LateCommit e -> {
                final Chunk c = byKey.get(e.key());
                if (!(c == null || c.allocationId != e.allocationId())) {
                    ctx.fail(Invariant.STALE_NOTHING,
                        "commit of current allocation " + e.allocationId() + " counted as late");
                }
            }
            case CoreEvent.RingEvicted e -> evicted(ctx, e);
            case CoreEvent.ClaimReleased e -> {
                if (e.released()) {
                    final Chunk c = byKey.get(e.ref().key());
                    if (!(c != null && !c.committed && c.allocationId == e.ref().allocationId())) {
                        ctx.fail(Invariant.STALE_NOTHING,
                            "released claim " + e.ref() + " was not an uncommitted claim");
                    }
                    remove(c);
                }
            }
            case CoreEvent.Lookup e -> lookup(ctx, e);
            case CoreEvent.ChunkRecovered e -> {
                allocated(ctx, new CoreEvent.Allocated(0, e.key(), e.allocationId(), e.startSlot(), e.slotCount()),
                    e.modelId());
                byKey.get(e.key()).committed = true;
            }
            default -> {
                // no effect on the index
            }
        }
    }

    private void allocated(final CheckContext ctx, final CoreEvent.Allocated e, final int modelId) {
        if (!(!byKey.containsKey(e.key()))) {
            ctx.fail(Invariant.STALE_NOTHING, "second writer for key " + e.key());
        }
        final Map.Entry<Integer, Chunk> below = bySlot.floorEntry(e.startSlot() + e.slotCount() - 1);
        if (!(below == null || below.getKey() + below.getValue().slotCount <= e.startSlot())) {
            ctx.fail(Invariant.RING, "allocation at slot " + e.startSlot() + " overlaps live chunk at "
                + (below == null ? -1 : below.getKey()));
        }
        if (!(e.startSlot() + e.slotCount() <= ctx.config().l2Slots())) {
            ctx.fail(Invariant.RING, "allocation past the ring's end");
        }
        final Chunk c = new Chunk(e.key(), e.allocationId(), modelId, e.startSlot(), e.slotCount());
        byKey.put(c.key, c);
        byAge.put(c.allocationId, c);
        bySlot.put(c.startSlot, c);
    }

    private void evicted(final CheckContext ctx, final CoreEvent.RingEvicted e) {
        final Chunk c = byKey.get(e.key());
        if (!(c != null && c.allocationId == e.allocationId())) {
            ctx.fail(Invariant.RING, "evicted chunk " + e.allocationId() + " is not live");
        }
        if (e.reason() == RingEvictReason.SPACE || e.reason() == RingEvictReason.WRAP) {
            if (!(byAge.firstKey() == e.allocationId())) {
                ctx.fail(Invariant.RING,
                    "ring evicted allocation " + e.allocationId() + " but the oldest live one is " + byAge.firstKey());
            }
        }
        remove(c);
    }

    private void lookup(final CheckContext ctx, final CoreEvent.Lookup e) {
        int expected = 0;
        for (final PrefixKey k : e.keys()) {
            final Chunk c = byKey.get(k);
            if (c == null || !c.committed || c.modelId != e.modelId()) {
                break;
            }
            expected++;
        }
        if (!(expected == e.prefixLength())) {
            ctx.fail(Invariant.LOOKUP_PREFIX, "lookup of " + e.keys().size() + " keys answered " + e.prefixLength()
                + ", the committed prefix of model " + e.modelId() + " is " + expected);
        }
    }

    private void remove(final Chunk c) {
        byKey.remove(c.key);
        byAge.remove(c.allocationId);
        bySlot.remove(c.startSlot);
    }
}
