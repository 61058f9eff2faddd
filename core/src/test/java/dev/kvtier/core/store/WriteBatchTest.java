package dev.kvtier.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.l1.L1Access;
import dev.kvtier.core.l1.Slice;
import org.junit.jupiter.api.Test;

/** A write batch's own transitions: open, sealed, submitted, done, and its chaining after earlier writes. */
class WriteBatchTest {
    private static final long SLOT = 4096;

    private static WriteBatch withPiece(final long id, final long fileOffset) {
        final WriteBatch b = new WriteBatch(id, 1, fileOffset);
        final Slice slice = L1Access.newSlice(fileOffset, SLOT);
        b.append(new WriteBatch.Piece(slice, 0, fileOffset, SLOT));
        return b;
    }

    @Test
    void shouldGoFromOpenToDoneThroughSealedAndSubmitted() {
        final WriteBatch b = withPiece(1, 0);
        assertEquals(WriteBatch.State.OPEN, b.state());
        assertTrue(b.seal(), "nothing earlier to wait for: ready at once");
        assertEquals(WriteBatch.State.SEALED, b.state());
        b.submitted();
        assertEquals(WriteBatch.State.SUBMITTED, b.state());
        b.finished();
        assertEquals(WriteBatch.State.DONE, b.state());
    }

    @Test
    void shouldRefuseTransitionsFromTheWrongState() {
        final WriteBatch b = withPiece(1, 0);
        assertThrows(IllegalStateException.class, b::submitted, "an open batch is not submitted");
        assertThrows(IllegalStateException.class, b::finished, "an open batch does not finish");
        b.seal();
        assertThrows(IllegalStateException.class, b::seal, "sealed twice");
        assertThrows(IllegalStateException.class,
            () -> b.append(new WriteBatch.Piece(L1Access.newSlice(SLOT, SLOT), 0, SLOT, SLOT)), "append when sealed");
        b.submitted();
        assertThrows(IllegalStateException.class, b::submitted, "submitted twice");
        b.finished();
        assertThrows(IllegalStateException.class, b::finished, "finished twice");
    }

    @Test
    void shouldSealAnEmptyBatchStraightToDoneAndRefuseSealingItAsWritable() {
        final WriteBatch empty = new WriteBatch(1, 1, 0);
        assertThrows(IllegalStateException.class, empty::seal);
        empty.sealEmpty();
        assertEquals(WriteBatch.State.DONE, empty.state());
        assertThrows(IllegalStateException.class, withPiece(2, 0)::sealEmpty, "a batch with a piece is not empty");
    }

    @Test
    void shouldRefuseAPieceThatIsNotFileContiguous() {
        final WriteBatch b = withPiece(1, 0);
        assertThrows(IllegalStateException.class,
            () -> b.append(new WriteBatch.Piece(L1Access.newSlice(0, SLOT), 0, 2 * SLOT, SLOT)));
        assertEquals(SLOT, b.lengthBytes());
    }

    @Test
    void shouldWaitForEveryEarlierWriteOnceAndBeReadyWhenTheLastFinishesAfterItIsSealed() {
        final WriteBatch first = withPiece(1, 0);
        final WriteBatch second = withPiece(2, 0);
        final WriteBatch later = withPiece(3, 0);
        later.chainAfter(first);
        later.chainAfter(first);
        later.chainAfter(second);
        assertEquals(2, later.unfinishedDeps(), "chained after the same batch twice counts once");
        assertFalse(later.earlierFinished(), "still open: not ready even with one dependency left");
        assertFalse(later.seal(), "one earlier write is still pending");
        assertThrows(IllegalStateException.class, later::submitted);
        assertTrue(later.earlierFinished(), "sealed and waiting for nothing: ready");
        assertThrows(IllegalStateException.class, later::earlierFinished, "waits for no earlier write");
        later.submitted();
        assertEquals(WriteBatch.State.SUBMITTED, later.state());
    }

    @Test
    void shouldNotChainAfterAFinishedBatch() {
        final WriteBatch done = withPiece(1, 0);
        done.seal();
        done.submitted();
        done.finished();
        final WriteBatch later = withPiece(2, 0);
        later.chainAfter(done);
        assertEquals(0, later.unfinishedDeps());
        assertTrue(later.seal());
    }
}
