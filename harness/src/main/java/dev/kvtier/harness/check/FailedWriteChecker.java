package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.IoOp;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Invariant 12 for writes the device did not complete (docs/design/STORAGE-CORE.md 4.4 and 10, write errors): a data
 * write that completed with an error or short (fewer bytes than its length: the rest of its range never reached L2)
 * is reported as a failed write ({@code WriteFinished} not ok), and every chunk over its range leaves the ring before
 * the core's next input, so bytes that never reached L2 are never committed or served. The model: the length of each
 * data write by I/O id (from {@code IoSubmitted}), and the live chunks' slot ranges by start slot (allocated or
 * recovered, until evicted or released).
 */
public final class FailedWriteChecker implements Checker {
    /** A data write's completion awaiting the core's verdict on its batch. */
    private record Verdict(long ioId, long fileOffset, long lengthBytes, long result) {
        boolean ok() {
            return result == lengthBytes;
        }
    }

    private final Map<Long, Long> writeLengths = new HashMap<>();
    /** Live chunks: start slot to {allocation id, slot count}. */
    private final TreeMap<Integer, long[]> chunks = new TreeMap<>();
    private Verdict verdict;
    /** A failed write whose range must hold no live chunk at the next input, or null. */
    private Verdict mustBeGone;

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        if (event instanceof CoreEvent.Input) {
            if (mustBeGone != null) {
                stillLive(ctx);
            }
            if (verdict != null) {
                ctx.fail(Invariant.LOAD_BYTES, "data write " + verdict.ioId() + " completed with " + verdict.result()
                    + " of " + verdict.lengthBytes() + " B, but no write batch finished on it");
            }
        }
        switch (event) {
            case CoreEvent.IoSubmitted e when e.op() == IoOp.WRITE -> writeLengths.put(e.ioId(), e.lengthBytes());
            case CoreEvent.IoCompleted e when e.op() == IoOp.WRITE -> {
                final Long length = writeLengths.remove(e.ioId());
                if (length != null) {
                    verdict = new Verdict(e.ioId(), e.fileOffset(), length, e.result());
                }
            }
            case CoreEvent.WriteFinished e -> finished(ctx, e);
            case CoreEvent.Allocated e -> chunks.put(e.startSlot(), new long[] {e.allocationId(), e.slotCount()});
            case CoreEvent.ChunkRecovered e -> chunks.put(e.startSlot(),
                new long[] {e.allocationId(), e.slotCount()});
            case CoreEvent.RingEvicted e -> remove(e.startSlot(), e.allocationId());
            case CoreEvent.ClaimReleased e when e.released() -> remove(e.ref().startSlot(), e.ref().allocationId());
            default -> {
                // nothing this checker models
            }
        }
    }

    private void finished(final CheckContext ctx, final CoreEvent.WriteFinished e) {
        final Verdict v = verdict;
        verdict = null;
        if (v == null) {
            return;
        }
        if (!(e.fileOffset() == v.fileOffset() && e.lengthBytes() == v.lengthBytes())) {
            ctx.fail(Invariant.LOAD_BYTES, "write batch " + e.batchId() + " [" + e.fileOffset() + ", +"
                + e.lengthBytes() + ") finished on the completion of data write " + v.ioId() + " [" + v.fileOffset()
                + ", +" + v.lengthBytes() + ")");
        }
        if (e.ok() != v.ok()) {
            ctx.fail(Invariant.LOAD_BYTES, "write batch " + e.batchId() + " [" + e.fileOffset() + ", +"
                + e.lengthBytes() + ") finished " + (e.ok() ? "OK" : "failed") + ", but the device wrote "
                + v.result() + " of its " + v.lengthBytes() + " B" + (v.ok() ? "" : ": a failed or short write "
                    + "must count as failed (docs/design/STORAGE-CORE.md 4.4)"));
        }
        if (!v.ok()) {
            mustBeGone = v;
        }
    }

    private void stillLive(final CheckContext ctx) {
        final Verdict v = mustBeGone;
        mustBeGone = null;
        final long slotBytes = ctx.config().slotBytes();
        final int from = Math.toIntExact(v.fileOffset() / slotBytes);
        final int to = Math.toIntExact((v.fileOffset() + v.lengthBytes() + slotBytes - 1) / slotBytes);
        final Map.Entry<Integer, long[]> below = chunks.lowerEntry(to);
        if (below != null && below.getKey() + below.getValue()[1] > from) {
            ctx.fail(Invariant.LOAD_BYTES, "data write " + v.ioId() + " [" + v.fileOffset() + ", +"
                + v.lengthBytes() + ") wrote " + v.result() + " B, but allocation " + below.getValue()[0]
                + " over its slots did not leave the ring before the next input: bytes that never reached L2 "
                + "stay committed");
        }
    }

    private void remove(final int startSlot, final long allocationId) {
        final long[] c = chunks.get(startSlot);
        if (c != null && c[0] == allocationId) {
            chunks.remove(startSlot);
        }
    }
}
