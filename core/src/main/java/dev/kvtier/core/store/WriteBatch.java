package dev.kvtier.core.store;

import dev.kvtier.core.l1.Slice;
import java.util.ArrayList;
import java.util.List;

/**
 * A grouped L2 write: file-contiguous pieces, in span order, each owning (a pending-write share of) an L1 slice. A
 * batch waits for the earlier pending writes that overlap it ({@code unfinishedDeps}), then goes to the device.
 */
final class WriteBatch {
    enum State { OPEN, SEALED, SUBMITTED, DONE }

    /** One piece: {@code lengthBytes} of {@code slice} at {@code sliceOffset} go to {@code fileOffset}. */
    record Piece(Slice slice, long sliceOffset, long fileOffset, long lengthBytes) { }

    final long id;
    final long storeId;
    final long fileStart;
    long fileEnd;
    final List<Piece> pieces = new ArrayList<>();
    final List<WriteBatch> dependents = new ArrayList<>();
    final List<LoadOp> waitingLoads = new ArrayList<>();
    final List<Runnable> waitingCommits = new ArrayList<>();
    int unfinishedDeps;
    State state = State.OPEN;

    WriteBatch(final long id, final long storeId, final long fileStart) {
        this.id = id;
        this.storeId = storeId;
        this.fileStart = fileStart;
        this.fileEnd = fileStart;
    }

    long lengthBytes() {
        return fileEnd - fileStart;
    }

    boolean overlaps(final long from, final long to) {
        return fileStart < to && from < fileEnd;
    }

    void append(final Piece piece) {
        if (state != State.OPEN) {
            throw new IllegalStateException("append to " + state + " batch " + id);
        }
        if (piece.fileOffset() != fileEnd) {
            throw new IllegalStateException("batch " + id + " ends at " + fileEnd + ", piece starts at "
                + piece.fileOffset());
        }
        pieces.add(piece);
        fileEnd += piece.lengthBytes();
    }
}
