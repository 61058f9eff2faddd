package dev.kvtier.core.store;

import dev.kvtier.core.l1.L1Cache;
import dev.kvtier.core.l1.Slice;
import dev.kvtier.core.port.IoSegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A grouped L2 write: file-contiguous pieces, in span order, each owning (a pending-write share of) an L1 slice. A
 * batch waits for the earlier pending writes that overlap it ({@code unfinishedDeps}), then goes to the device.
 *
 * <p>It owns its transitions, and each checks where it starts from:
 * <pre>
 *   OPEN --append--&gt; OPEN --seal--&gt; SEALED --(no earlier write left)--&gt; SUBMITTED --finish--&gt; DONE
 *   OPEN --seal with no piece--&gt; DONE
 * </pre>
 * A batch is chained after an earlier one only while OPEN; an earlier write finishing counts down
 * {@code unfinishedDeps} of an OPEN or SEALED batch. Loads and durable commits wait on a batch until it is DONE.
 */
final class WriteBatch {
    enum State {
        OPEN,
        SEALED,
        SUBMITTED,
        DONE
    }

    /** One piece: {@code lengthBytes} of {@code slice} at {@code sliceOffset} go to {@code fileOffset}. */
    record Piece(Slice slice, long sliceOffset, long fileOffset, long lengthBytes) {}

    final long id;
    final long storeId;
    final long fileStart;
    private long fileEnd;
    private final List<Piece> pieces = new ArrayList<>();
    private final List<WriteBatch> dependents = new ArrayList<>();
    private final List<LoadOp> waitingLoads = new ArrayList<>();
    private final List<Runnable> waitingCommits = new ArrayList<>();
    private int unfinishedDeps;
    private State state = State.OPEN;

    WriteBatch(final long id, final long storeId, final long fileStart) {
        if (id <= 0) {
            throw new IllegalArgumentException("batch id must be positive, got " + id);
        }
        this.id = id;
        this.storeId = storeId;
        this.fileStart = fileStart;
        this.fileEnd = fileStart;
    }

    State state() {
        return state;
    }

    long fileEnd() {
        return fileEnd;
    }

    long lengthBytes() {
        return fileEnd - fileStart;
    }

    int pieceCount() {
        return pieces.size();
    }

    List<Piece> pieces() {
        return pieces;
    }

    int unfinishedDeps() {
        return unfinishedDeps;
    }

    boolean overlaps(final long from, final long to) {
        return fileStart < to && from < fileEnd;
    }

    /** Adds a piece at the end; only while OPEN, and only file-contiguous. */
    void append(final Piece piece) {
        requireState(State.OPEN, "append to");
        if (piece.fileOffset() != fileEnd) {
            throw new IllegalStateException("batch " + id + " ends at " + fileEnd + ", piece starts at "
                + piece.fileOffset());
        }
        assert piece.lengthBytes() > 0 : "empty piece in batch " + id;
        final long before = fileEnd;
        pieces.add(piece);
        fileEnd += piece.lengthBytes();
        assert fileEnd > before : "batch " + id + " did not grow";
    }

    /**
     * Chains this (open) batch after {@code earlier}, an overlapping pending write made before it: this batch goes to
     * the device only once {@code earlier} is done. Chaining twice after the same batch counts once.
     */
    void chainAfter(final WriteBatch earlier) {
        requireState(State.OPEN, "chain");
        assert earlier != this : "batch " + id + " chained after itself";
        assert earlier.id < id : "batch " + id + " chained after later batch " + earlier.id;
        if (earlier.state == State.DONE || earlier.dependents.contains(this)) {
            return;
        }
        earlier.dependents.add(this);
        unfinishedDeps++;
    }

    /** OPEN to DONE: the batch got no piece, so it never goes to the device. */
    void sealEmpty() {
        requireState(State.OPEN, "seal-empty");
        if (!pieces.isEmpty()) {
            throw new IllegalStateException("batch " + id + " has " + pieces.size() + " pieces; it is not empty");
        }
        state = State.DONE;
    }

    /** OPEN to SEALED; true when no earlier write is left to wait for (the caller submits it then). */
    boolean seal() {
        requireState(State.OPEN, "seal");
        if (pieces.isEmpty()) {
            throw new IllegalStateException("sealing empty batch " + id + "; use sealEmpty");
        }
        state = State.SEALED;
        return unfinishedDeps == 0;
    }

    /** SEALED to SUBMITTED: the batch's write goes to the I/O queue. */
    void submitted() {
        requireState(State.SEALED, "submit");
        if (unfinishedDeps != 0) {
            throw new IllegalStateException("submitting batch " + id + " that waits for " + unfinishedDeps
                + " earlier writes");
        }
        state = State.SUBMITTED;
    }

    /** SUBMITTED to DONE: the device answered. */
    void finished() {
        requireState(State.SUBMITTED, "finish");
        state = State.DONE;
    }

    /**
     * An earlier write this batch was chained after finished; true when this batch is sealed and waits for nothing
     * more (the caller submits it then).
     */
    boolean earlierFinished() {
        assert state == State.OPEN || state == State.SEALED : "batch " + id + " is " + state + " but still chained";
        if (unfinishedDeps <= 0) {
            throw new IllegalStateException("batch " + id + " waits for no earlier write");
        }
        unfinishedDeps--;
        return unfinishedDeps == 0 && state == State.SEALED;
    }

    /** The batches chained after this one, in the order they were chained. */
    List<WriteBatch> dependents() {
        return dependents;
    }

    /** A load waits for this batch before reading an overlapping range. */
    void awaitedBy(final LoadOp load) {
        assert state != State.DONE : "load waits on finished batch " + id;
        waitingLoads.add(load);
    }

    /** A durable commit waits for this batch; {@code whenDone} runs once it is done. */
    void awaitedBy(final Runnable whenDone) {
        assert state != State.DONE : "commit waits on finished batch " + id;
        waitingCommits.add(whenDone);
    }

    List<LoadOp> waitingLoads() {
        return waitingLoads;
    }

    List<Runnable> waitingCommits() {
        return waitingCommits;
    }

    /** The memory side of the write: pieces adjacent in the pool are merged into one segment. */
    List<IoSegment> segments(final L1Cache l1) {
        assert !pieces.isEmpty() : "segments of empty batch " + id;
        final List<IoSegment> segments = new ArrayList<>();
        long segStart = -1;
        long segLength = 0;
        for (final Piece p : pieces) {
            final long at = p.slice().poolOffset() + p.sliceOffset();
            if (segStart >= 0 && segStart + segLength == at) {
                segLength += p.lengthBytes();
                continue;
            }
            if (segStart >= 0) {
                segments.add(l1.segment(segStart, segLength));
            }
            segStart = at;
            segLength = p.lengthBytes();
        }
        segments.add(l1.segment(segStart, segLength));
        return segments;
    }

    PendingWriteView view() {
        return new PendingWriteView(id, storeId, fileStart, lengthBytes(), state.name(), unfinishedDeps);
    }

    private void requireState(final State expected, final String what) {
        if (state != expected) {
            throw new IllegalStateException("cannot " + what + " batch " + id + ": it is " + state + ", not "
                + expected);
        }
    }
}
