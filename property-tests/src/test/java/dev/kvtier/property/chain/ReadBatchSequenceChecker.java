package dev.kvtier.property.chain;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.harness.check.CheckContext;
import dev.kvtier.harness.check.Checker;
import dev.kvtier.harness.check.Invariant;
import java.util.HashMap;
import java.util.Map;

/**
 * The load path's read batching (docs/design/STORAGE-CORE.md 5.3), which no invariant of section 7 names: a load reads
 * its gaps in batches of at most {@code readBatchMax} reads and at most L1's size in bytes, the next batch starting
 * only when the whole batch has landed, and no single read is longer than {@code maxReadBytes}. A load's reads are its
 * SliceReserved events; a read lands with Promoted or PromotionDiscarded. Reported as liveness-adjacent behaviour
 * under invariant 16's number since it bounds what a load holds. Maps keyed by load id are point look-ups only.
 * Unlike the harness's {@code ReadBatchChecker} (the bounds on reads in flight, at any time), it checks the batches
 * as a sequence: each one counted from the moment the previous one has wholly landed.
 */
final class ReadBatchSequenceChecker implements Checker {
    private static final class Load {
        int outstanding;
        int batchReads;
        long batchBytes;
    }

    private final Map<Long, Load> loads = new HashMap<>();

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.LoadRequested e -> loads.put(e.loadId(), new Load());
            case CoreEvent.LoadCompleted e -> loads.remove(e.loadId());
            case CoreEvent.LoadFailed e -> loads.remove(e.loadId());
            case CoreEvent.SliceReserved e -> reserved(ctx, e);
            case CoreEvent.Promoted e -> landed(e.loadId());
            case CoreEvent.PromotionDiscarded e -> landed(e.loadId());
            default -> {
                // not a read
            }
        }
    }

    private void reserved(final CheckContext ctx, final CoreEvent.SliceReserved e) {
        final Load load = loads.get(e.opId());
        if (load == null) {
            return; // a store's reservation
        }
        final CoreConfig c = ctx.config();
        if (load.outstanding == 0) {
            load.batchReads = 0;
            load.batchBytes = 0;
        }
        load.outstanding++;
        load.batchReads++;
        load.batchBytes += e.lengthBytes();
        if (e.lengthBytes() > c.maxReadBytes()) {
            ctx.fail(Invariant.LIVENESS, "load " + e.opId() + " read " + e.lengthBytes() + " B, more than maxReadBytes "
                + c.maxReadBytes());
        }
        if (load.batchReads > c.readBatchMax()) {
            ctx.fail(Invariant.LIVENESS, "load " + e.opId() + " issued read " + load.batchReads + " of a batch, more "
                + "than readBatchMax " + c.readBatchMax() + " (a batch starts when the previous one has landed)");
        }
        if (load.batchBytes > Math.min(c.l1Bytes(), c.l1PoolBytes())) {
            ctx.fail(Invariant.LIVENESS,
                "load " + e.opId() + " read batch holds " + load.batchBytes + " B, more than L1");
        }
    }

    private void landed(final long loadId) {
        final Load load = loads.get(loadId);
        if (load != null) {
            load.outstanding--;
        }
    }
}
