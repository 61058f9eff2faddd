package dev.kvtier.core.store;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.event.CoreEvent.SealReason;
import dev.kvtier.core.l1.L1Cache;
import dev.kvtier.core.l1.Slice;
import dev.kvtier.core.l2.AllocationsById;
import dev.kvtier.core.l2.Checksums;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.span.StoreSpan;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.SpanPiece;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A grouped store as a continuation (docs/design/STORAGE-CORE.md 4.3). Span by span: re-check that every piece's
 * allocation is still current (a span that went stale while the store waited writes nothing); seal the open write batch
 * if the span is not file-adjacent to it or would make it larger than {@code max(span, groupedWriteBatchBytes)}, or as
 * soon as the reservation may have to wait for memory (the next victim's memory is held by a pending write); reserve an
 * L1 slice (evicting headroom first, then by policy), or park until a pending write frees memory; copy
 * the bytes in; insert the entry (dropping overlaps; in-flight promotions of the range are superseded); append to
 * the batch, chained after overlapping pending writes. After the last span: seal, trim once, complete.
 */
final class StoreOp extends Op {
    private final TieredStore pump;
    private final EventSink sink;
    private final L2Directory directory;
    private final L1Cache l1;
    private final WriteBatches writes;
    private final Checksums checksums;
    private final ActiveLoads loads;
    private final long groupedWriteBatchBytes;
    private final MemoryRegion source;
    private final ArrayDeque<StoreSpan> work;
    private final Consumer<StoreResult> done;
    private final AllocationsById admitted;
    private final AllocationsById rejected;
    private final int spanCount;
    private final long slotBytes;
    private WriteBatch batch;
    private long storedBytes;
    private long groupEpoch;
    private int acceptedSpans;
    private int rejectedSpans;
    private boolean started;

    StoreOp(final Parts parts, final long storeId, final MemoryRegion source, final List<StoreSpan> spans,
            final List<AllocationRef> rejectedAtBoundary, final Consumer<StoreResult> done) {
        super(storeId);
        this.pump = parts.pump();
        this.sink = parts.sink();
        this.directory = parts.directory();
        this.l1 = parts.l1();
        this.writes = parts.writes();
        this.checksums = parts.checksums();
        this.loads = parts.loads();
        this.groupedWriteBatchBytes = parts.config().groupedWriteBatchBytes();
        this.source = source;
        this.work = new ArrayDeque<>(spans);
        this.done = done;
        this.spanCount = spans.size();
        this.slotBytes = parts.config().slotBytes();
        this.admitted = new AllocationsById(pieces(spans));
        this.rejected = new AllocationsById(rejectedAtBoundary.size());
        for (final AllocationRef r : rejectedAtBoundary) {
            rejected.put(r);
        }
    }

    /** Pieces of {@code spans} in all: at most that many allocations are admitted. */
    private static int pieces(final List<StoreSpan> spans) {
        int n = 0;
        for (final StoreSpan s : spans) {
            n += s.pieces().size();
        }
        return n;
    }

    @Override
    void step() {
        if (!started) {
            started = true;
            groupEpoch = l1.nextEpoch();
            long bytes = 0;
            for (final StoreSpan s : work) {
                bytes += s.lengthBytes();
            }
            sink.emit(new CoreEvent.StoreReceived(id, spanCount, bytes));
        }
        while (!work.isEmpty()) {
            final StoreSpan span = work.poll();
            if (!allCurrent(span)) {
                final List<StoreSpan> current = withoutStale(span);
                for (int i = current.size() - 1; i >= 0; i--) {
                    work.addFirst(current.get(i));
                }
                continue;
            }
            if (!admit(span)) {
                work.addFirst(span);
                return;
            }
        }
        finish();
    }

    /** Admits one validated span; false when it must wait for memory (the op is then parked). */
    private boolean admit(final StoreSpan span) {
        final long length = span.lengthBytes();
        assert length > 0 : "empty span in store " + id;
        final long storedBefore = storedBytes;
        if (length > l1.maxReservationBytes()) {
            reject(span.pieces(), RejectReason.LARGER_THAN_L1);
            return true;
        }
        if (batch != null && batch.fileEnd() != span.fileOffset()) {
            sealBatch(SealReason.NOT_ADJACENT);
        } else if (batch != null && batch.lengthBytes() + length > Math.max(length, groupedWriteBatchBytes)) {
            sealBatch(SealReason.SIZE);
        }
        final Slice slice = l1.reserve(length, () -> {
            if (batch != null) {
                sealBatch(SealReason.MEMORY_WAIT);
            }
        });
        if (slice == null) {
            if (batch != null) {
                sealBatch(SealReason.MEMORY_WAIT);
            }
            pump.parkForMemory(this, length);
            return false;
        }
        sink.emit(new CoreEvent.SliceReserved(id, span.fileOffset(), length, slice.poolOffset()));
        l1.copyIn(source, span.srcOffset(), slice, length);
        checksums.record(span, slice.poolOffset());
        loads.supersede(span.fileOffset(), span.fileEnd());
        l1.insert(id, span.fileOffset(), span.srcOffset(), slice, false, groupEpoch,
            Math.toIntExact(span.srcOffset() / slotBytes));
        if (batch == null) {
            batch = writes.open(id, span.fileOffset());
        }
        writes.append(batch, slice, span.fileOffset());
        storedBytes += length;
        acceptedSpans++;
        for (final SpanPiece p : span.pieces()) {
            admitted.putIfAbsent(p.alloc());
        }
        assert storedBytes == storedBefore + length : "store " + id + " lost count of its bytes";
        assert batch != null : "store " + id + " admitted a span with no open batch";
        assert batch.fileEnd() == span.fileEnd() : "span not at the end of the open batch";
        return true;
    }

    /** Whether every piece's allocation is still current (it may have changed while the store waited). */
    private boolean allCurrent(final StoreSpan span) {
        boolean allCurrent = true;
        for (final SpanPiece p : span.pieces()) {
            allCurrent &= directory.isCurrent(p.alloc());
        }
        return allCurrent;
    }

    /** The span's pieces still current, as spans of consecutive pieces; every stale piece is rejected. */
    private List<StoreSpan> withoutStale(final StoreSpan span) {
        final List<StoreSpan> out = new ArrayList<>();
        List<SpanPiece> run = new ArrayList<>();
        for (final SpanPiece p : span.pieces()) {
            if (directory.isCurrent(p.alloc())) {
                run.add(p);
                continue;
            }
            reject(List.of(p), RejectReason.STALE);
            if (!run.isEmpty()) {
                out.add(new StoreSpan(run));
                run = new ArrayList<>();
            }
        }
        if (!run.isEmpty()) {
            out.add(new StoreSpan(run));
        }
        return out;
    }

    private void reject(final List<SpanPiece> pieces, final RejectReason reason) {
        for (final SpanPiece p : pieces) {
            rejected.put(p.alloc());
            sink.emit(new CoreEvent.SpanRejected(id, p.alloc().key(), p.alloc().allocationId(),
                p.fileOffset(), p.lengthBytes(), reason));
        }
        rejectedSpans++;
    }

    private void sealBatch(final SealReason reason) {
        writes.seal(batch, reason);
        batch = null;
    }

    private void finish() {
        assert work.isEmpty() : "store " + id + " finishes with " + work.size() + " spans left";
        if (batch != null) {
            sealBatch(SealReason.END_OF_STORE);
        }
        assert batch == null : "store " + id + " left its batch open";
        l1.trim(id, storedBytes);
        final List<AllocationRef> accepted = new ArrayList<>(admitted.size());
        admitted.forEach(r -> {
            if (!rejected.contains(r.allocationId())) {
                accepted.add(r);
            }
        });
        sink.emit(new CoreEvent.StoreCompleted(id, acceptedSpans, rejectedSpans, storedBytes));
        done.accept(new StoreResult(id, accepted, rejected.values(), writes.takeSurfacedErrors()));
    }
}
