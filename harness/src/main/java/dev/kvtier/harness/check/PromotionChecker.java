package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Invariant 12's guard against the first hazard of docs/design/STORAGE-CORE.md 6, a delayed promotion replacing a
 * newer store: a promotion whose read was in flight while a store inserted an entry over any of its bytes, or while
 * the ring evicted a chunk over them, is not inserted into L1 (section 10: every store marks the in-flight reads that
 * overlap it as superseded; a superseded read is copied to its load but never promoted). A read is in flight from its
 * load's slice reservation ({@code SliceReserved} of a live load) until its promotion is decided ({@code Promoted} or
 * {@code PromotionDiscarded}, at the same offset). Whether the store's bytes differ does not matter: a promotion that
 * replaced the store's entry would serve the bytes the read found, from before the store.
 */
public final class PromotionChecker implements Checker {
    /** A load's read in flight; {@code by} names what superseded it (null while nothing has). */
    private static final class Read {
        final long loadId;
        final long fileOffset;
        final long lengthBytes;
        String by;

        Read(final long loadId, final long fileOffset, final long lengthBytes) {
            this.loadId = loadId;
            this.fileOffset = fileOffset;
            this.lengthBytes = lengthBytes;
        }
    }

    private final Set<Long> liveLoads = new HashSet<>();
    /** The reads in flight (a few: at most readBatchMax for each load in flight). */
    private final List<Read> reads = new ArrayList<>();

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.LoadRequested e -> liveLoads.add(e.loadId());
            case CoreEvent.LoadCompleted e -> liveLoads.remove(e.loadId());
            case CoreEvent.LoadFailed e -> liveLoads.remove(e.loadId());
            case CoreEvent.SliceReserved e -> {
                if (liveLoads.contains(e.opId())) {
                    reads.add(new Read(e.opId(), e.fileOffset(), e.lengthBytes()));
                }
            }
            case CoreEvent.EntryInserted e -> {
                if (!e.headroom() && !reads.isEmpty()) {
                    supersede(e.fileOffset(), e.fileOffset() + e.lengthBytes(), "store " + e.opId());
                }
            }
            case CoreEvent.RingEvicted e -> {
                if (!reads.isEmpty()) {
                    final long slot = ctx.config().slotBytes();
                    supersede(e.startSlot() * slot, (e.startSlot() + (long) e.slotCount()) * slot,
                        "the ring eviction of allocation " + e.allocationId());
                }
            }
            case CoreEvent.Promoted e -> {
                final Read r = landed(e.loadId(), e.fileOffset());
                if (r != null && r.by != null) {
                    ctx.fail(Invariant.LOAD_BYTES, "load " + e.loadId() + " promoted its read of [" + e.fileOffset()
                        + ", +" + e.lengthBytes() + ") into L1, though " + r.by + " covered those bytes while the "
                        + "read was in flight: a delayed promotion replaces a newer store (STORAGE-CORE.md 6)");
                }
            }
            case CoreEvent.PromotionDiscarded e -> landed(e.loadId(), e.fileOffset());
            default -> {
                // nothing this checker models
            }
        }
    }

    private void supersede(final long from, final long to, final String by) {
        for (final Read r : reads) {
            if (r.by == null && r.fileOffset < to && from < r.fileOffset + r.lengthBytes) {
                r.by = by;
            }
        }
    }

    /** The read of {@code loadId} at {@code fileOffset} is no longer in flight; returns it (null if unknown). */
    private Read landed(final long loadId, final long fileOffset) {
        for (int i = 0; i < reads.size(); i++) {
            final Read r = reads.get(i);
            if (r.loadId == loadId && r.fileOffset == fileOffset) {
                reads.remove(i);
                return r;
            }
        }
        return null;
    }
}
