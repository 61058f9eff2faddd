package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.util.LongSortedMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Invariant 6: a pool slice owned by a pending L2 write is never reused or freed before that write completes, and
 * every slice is freed exactly once. Shadow slices come from SliceReserved (a reservation may not overlap a live
 * slice); a stored entry's slice is owned by a write from the moment it is inserted (the core appends it to its
 * store's open write batch at once) until the WriteFinished of the batch that BatchSealed says covers it; SliceFreed
 * must name a live slice exactly, neither resident nor write-owned. Promotions' slices are never write-owned. Op-id
 * maps are used for point look-ups only.
 */
public final class SliceOwnershipChecker implements Checker {
    private static final class Slice {
        final long poolOffset;
        final long lengthBytes;
        boolean resident;
        int writes;

        Slice(final long poolOffset, final long lengthBytes) {
            this.poolOffset = poolOffset;
            this.lengthBytes = lengthBytes;
        }
    }

    private record Pending(long fileOffset, Slice slice) {}

    private final LongSortedMap<Slice> live = new LongSortedMap<>();
    private final Map<Long, List<Pending>> unsealed = new HashMap<>();
    private final Map<Long, List<Slice>> batches = new HashMap<>();

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.SliceReserved e -> reserve(ctx, e);
            case CoreEvent.EntryInserted e -> {
                final Slice s = live.get(e.poolOffset());
                if (!(s != null)) {
                    ctx.fail(Invariant.SLICE_OWNERSHIP, "entry in unreserved slice " + e.poolOffset());
                }
                s.resident = true;
                if (!e.headroom()) {
                    s.writes++;
                    unsealed.computeIfAbsent(e.opId(), k -> new ArrayList<>()).add(new Pending(e.fileOffset(), s));
                }
            }
            case CoreEvent.EntryEvicted e -> {
                final Slice s = live.get(e.poolOffset());
                if (!(s != null && s.resident)) {
                    ctx.fail(Invariant.SLICE_OWNERSHIP, "evicted entry's slice " + e.poolOffset() + " is not resident");
                }
                s.resident = false;
                if (!(e.pendingWrite() == (s.writes > 0))) {
                    ctx.fail(Invariant.SLICE_OWNERSHIP, "eviction at " + e.poolOffset() + " says pendingWrite="
                        + e.pendingWrite() + ", model says " + s.writes + " writes");
                }
            }
            case CoreEvent.BatchSealed e -> seal(e);
            case CoreEvent.StoreCompleted e -> unsealed.remove(e.storeId());
            case CoreEvent.WriteFinished e -> {
                for (final Slice s : batches.getOrDefault(e.batchId(), List.of())) {
                    s.writes--;
                }
                batches.remove(e.batchId());
            }
            case CoreEvent.SliceFreed e -> free(ctx, e);
            default -> {
                // no effect on slices
            }
        }
    }

    private void reserve(final CheckContext ctx, final CoreEvent.SliceReserved e) {
        final Slice below = live.floorValue(e.poolOffset() + e.lengthBytes() - 1);
        if (below != null && below.poolOffset + below.lengthBytes > e.poolOffset()) {
            ctx.fail(Invariant.SLICE_OWNERSHIP, "slice [" + e.poolOffset() + ", +" + e.lengthBytes()
                + ") reuses live slice at " + below.poolOffset + (below.writes > 0 ? " owned by a pending write" : ""));
        }
        live.put(e.poolOffset(), new Slice(e.poolOffset(), e.lengthBytes()));
    }

    private void seal(final CoreEvent.BatchSealed e) {
        final List<Pending> pending = unsealed.getOrDefault(e.storeId(), List.of());
        final List<Slice> owned = new ArrayList<>();
        final List<Pending> rest = new ArrayList<>();
        for (final Pending p : pending) {
            if (p.fileOffset >= e.fileOffset() && p.fileOffset < e.fileOffset() + e.lengthBytes()
                && owned.size() < e.entries()) {
                owned.add(p.slice);
            } else {
                rest.add(p);
            }
        }
        unsealed.put(e.storeId(), rest);
        batches.put(e.batchId(), owned);
    }

    private void free(final CheckContext ctx, final CoreEvent.SliceFreed e) {
        final Slice s = live.get(e.poolOffset());
        if (!(s != null && s.lengthBytes == e.lengthBytes())) {
            ctx.fail(Invariant.SLICE_OWNERSHIP,
                "freed [" + e.poolOffset() + ", +" + e.lengthBytes() + ") is not a live slice (double free?)");
        }
        if (!(!s.resident)) {
            ctx.fail(Invariant.SLICE_OWNERSHIP, "freed slice " + e.poolOffset() + " is still resident");
        }
        if (!(s.writes == 0)) {
            ctx.fail(Invariant.SLICE_OWNERSHIP,
                "freed slice " + e.poolOffset() + " before its pending write completed");
        }
        live.remove(e.poolOffset());
    }

    @Override
    public void atEnd(final CheckContext ctx) {
        for (final Slice s : live.values()) {
            if (!(s.resident)) {
                ctx.fail(Invariant.SLICE_OWNERSHIP,
                    "slice " + s.poolOffset + " is neither resident nor freed at the end (leaked)");
            }
        }
    }
}
