package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The load path's bounds (docs/design/STORAGE-CORE.md 5.3, and our choices there, section 10): a load reads its gaps
 * in batches of at most {@code readBatchMax} reads and at most L1's size, so at no time does one load have more than
 * {@code readBatchMax} reads in flight, nor more bytes in flight than the L1 pool holds; every read covers whole slots
 * (each is checked against its checksum) and is at most {@code maxReadBytes} (at most L1's size) in whole slots, or
 * one slot.
 * Reported as invariant 1: they bound what a load may hold of L1. A read starts when its slice is reserved
 * (SliceReserved of an open load) and ends when it is promoted or discarded. The maps are used for point look-ups only.
 */
public final class ReadBatchChecker implements Checker {
    /** Reads in flight of one load: how many, their bytes, and each one's length by file offset. */
    private static final class InFlight {
        final Map<Long, ArrayDeque<Long>> lengths = new HashMap<>();
        int reads;
        long bytes;
        boolean finished;
    }

    private final Map<Long, InFlight> loads = new HashMap<>();

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.LoadRequested e -> loads.put(e.loadId(), new InFlight());
            case CoreEvent.SliceReserved e -> {
                final InFlight f = loads.get(e.opId());
                if (f != null) {
                    issued(ctx, e, f);
                }
            }
            case CoreEvent.Promoted e -> landed(ctx, e.loadId(), e.fileOffset());
            case CoreEvent.PromotionDiscarded e -> landed(ctx, e.loadId(), e.fileOffset());
            case CoreEvent.LoadCompleted e -> finished(e.loadId());
            case CoreEvent.LoadFailed e -> finished(e.loadId());
            default -> {
                // not a read
            }
        }
    }

    private void issued(final CheckContext ctx, final CoreEvent.SliceReserved e, final InFlight f) {
        final long slot = ctx.config().slotBytes();
        if (!(e.fileOffset() % slot == 0 && e.lengthBytes() % slot == 0 && e.lengthBytes() > 0)) {
            ctx.fail(Invariant.CAPACITY, "load " + e.opId() + " reads [" + e.fileOffset() + ", +" + e.lengthBytes()
                + "), not whole slots of " + slot + " B");
        }
        if (!(e.lengthBytes() <= SpecModel.readBoundBytes(ctx.config()))) {
            ctx.fail(Invariant.CAPACITY, "load " + e.opId() + " reads " + e.lengthBytes() + " B at once, above "
                + SpecModel.readBoundBytes(ctx.config()) + " (maxReadBytes in whole slots)");
        }
        f.reads++;
        f.bytes += e.lengthBytes();
        f.lengths.computeIfAbsent(e.fileOffset(), k -> new ArrayDeque<>()).add(e.lengthBytes());
        if (!(f.reads <= ctx.config().readBatchMax())) {
            ctx.fail(Invariant.CAPACITY, "load " + e.opId() + " has " + f.reads + " reads in flight, readBatchMax "
                + ctx.config().readBatchMax());
        }
        if (!(f.bytes <= SpecModel.poolBytes(ctx.config()))) {
            ctx.fail(Invariant.CAPACITY,
                "load " + e.opId() + " has " + f.bytes + " B of reads in flight, more than L1's "
                    + SpecModel.poolBytes(ctx.config()));
        }
    }

    private void landed(final CheckContext ctx, final long loadId, final long fileOffset) {
        final InFlight f = loads.get(loadId);
        final ArrayDeque<Long> at = f == null ? null : f.lengths.get(fileOffset);
        if (!(at != null && !at.isEmpty())) {
            ctx.fail(Invariant.CAPACITY, "load " + loadId + " landed a read at " + fileOffset + " it never issued");
        }
        final long length = at.poll();
        if (at.isEmpty()) {
            f.lengths.remove(fileOffset);
        }
        f.reads--;
        f.bytes -= length;
        if (f.finished && f.reads == 0) {
            loads.remove(loadId);
        }
    }

    private void finished(final long loadId) {
        final InFlight f = loads.get(loadId);
        if (f != null) {
            f.finished = true;
            if (f.reads == 0) {
                loads.remove(loadId);
            }
        }
    }
}
