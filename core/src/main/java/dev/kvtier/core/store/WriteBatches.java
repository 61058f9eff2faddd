package dev.kvtier.core.store;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.SealReason;
import dev.kvtier.core.l1.L1Cache;
import dev.kvtier.core.l1.Slice;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.port.EventSink;
import java.util.ArrayList;
import java.util.List;

/**
 * The L2 write path of the tiered store: it opens write batches, appends stored slices to them (chaining each
 * batch after the pending writes it overlaps, so writes to a range complete in store order), seals them, submits
 * them to the I/O queue once nothing earlier is left to wait for, and finishes them when the device answers (frees
 * slices no longer resident, submits the batches chained after them, wakes the loads and durable commits waiting
 * on them). A failed write invalidates its L2 range in the directory and is counted, to be surfaced with the next
 * store result.
 */
final class WriteBatches {
    private final EventSink sink;
    private final L1Cache l1;
    private final IoQueue io;
    private final L2Directory directory;
    private final PendingWrites pending = new PendingWrites();
    private long nextBatchId = 1;
    private long writesCompleted;
    private long writeErrors;
    private int unsurfacedWriteErrors;

    WriteBatches(final EventSink sink, final L1Cache l1, final IoQueue io, final L2Directory directory) {
        this.sink = sink;
        this.l1 = l1;
        this.io = io;
        this.directory = directory;
    }

    /** A new, empty, open batch of store {@code storeId} starting at {@code fileStart}. */
    WriteBatch open(final long storeId, final long fileStart) {
        final WriteBatch b = new WriteBatch(nextBatchId++, storeId, fileStart);
        final int before = pending.size();
        pending.add(b);
        assert pending.size() == before + 1 : "batch " + b.id + " not added";
        return b;
    }

    /** Appends a piece to an open batch, chaining the batch after pending writes that overlap the piece. */
    void append(final WriteBatch batch, final Slice slice, final long fileOffset) {
        for (final WriteBatch earlier : pending.overlapping(fileOffset, fileOffset + slice.lengthBytes(), batch)) {
            batch.chainAfter(earlier);
        }
        l1.holdForWrite(slice);
        batch.append(new WriteBatch.Piece(slice, 0, fileOffset, slice.lengthBytes()));
        pending.grew(batch);
        assert slice.pendingWrites() > 0 : "appended slice at " + slice.poolOffset() + " is not held";
    }

    /** Seals a batch: it goes to the device once the overlapping writes before it have finished. */
    void seal(final WriteBatch batch, final SealReason reason) {
        if (batch.pieceCount() == 0) {
            pending.remove(batch);
            batch.sealEmpty();
            return;
        }
        final boolean ready = batch.seal();
        sink.emit(new CoreEvent.BatchSealed(batch.id, batch.storeId, batch.fileStart, batch.lengthBytes(),
            batch.pieceCount(), batch.unfinishedDeps(), reason));
        if (ready) {
            submit(batch);
        }
        assert batch.state() != WriteBatch.State.OPEN : "batch " + batch.id + " still open after seal";
    }

    /** The device answered a batch's write; {@code ok} when every byte was written. */
    void finished(final WriteBatch batch, final boolean ok) {
        batch.finished();
        pending.remove(batch);
        writesCompleted++;
        if (!ok) {
            writeErrors++;
            unsurfacedWriteErrors++;
            directory.invalidate(batch.fileStart, batch.lengthBytes());
        }
        sink.emit(new CoreEvent.WriteFinished(batch.id, batch.fileStart, batch.lengthBytes(), ok));
        for (final WriteBatch.Piece p : batch.pieces()) {
            l1.writeFinished(p.slice());
        }
        for (final WriteBatch next : batch.dependents()) {
            if (next.earlierFinished()) {
                submit(next);
            }
        }
        for (final LoadOp load : batch.waitingLoads()) {
            load.writeFinished(batch);
        }
        for (final Runnable commit : batch.waitingCommits()) {
            commit.run();
        }
    }

    /** Pending (unfinished) write batches overlapping {@code [from, to)}, oldest first. */
    List<WriteBatch> overlapping(final long from, final long to) {
        return pending.overlapping(from, to, null);
    }

    /** Write errors not yet reported with a store result; resets the count. */
    int takeSurfacedErrors() {
        final int n = unsurfacedWriteErrors;
        unsurfacedWriteErrors = 0;
        return n;
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    int count() {
        return pending.size();
    }

    long completed() {
        return writesCompleted;
    }

    long errors() {
        return writeErrors;
    }

    /** The pending batches, oldest first, as read-only snapshots. */
    List<PendingWriteView> views() {
        final List<PendingWriteView> out = new ArrayList<>();
        for (final WriteBatch b : pending.all()) {
            out.add(b.view());
        }
        return out;
    }

    private void submit(final WriteBatch batch) {
        batch.submitted();
        io.write(this, batch, batch.segments(l1));
    }
}
