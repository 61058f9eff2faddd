package dev.kvtier.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.l1.L1Access;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Overlap queries of the pending writes against a scan of every batch, oldest first. */
class PendingWritesTest {
    private static final long SLOT = 4096;

    /** Adds a batch at {@code startSlot} and grows it to {@code slots} slots, as WriteBatches does. */
    private static WriteBatch add(final PendingWrites pending, final long id, final long startSlot, final int slots) {
        final WriteBatch b = new WriteBatch(id, 1, startSlot * SLOT);
        pending.add(b);
        for (int i = 0; i < slots; i++) {
            final long at = (startSlot + i) * SLOT;
            b.append(new WriteBatch.Piece(L1Access.newSlice(at, SLOT), 0, at, SLOT));
            pending.grew(b);
        }
        return b;
    }

    private static List<WriteBatch> scan(final List<WriteBatch> all, final long from, final long to,
                                         final WriteBatch except) {
        final List<WriteBatch> out = new ArrayList<>();
        for (final WriteBatch b : all) { // all is in id order
            if (b != except && b.overlaps(from, to)) {
                out.add(b);
            }
        }
        return out;
    }

    @Test
    void shouldFindTheOverlappingBatchesOldestFirstAsAScanDoes() {
        final SplittableRandom random = new SplittableRandom(17);
        final PendingWrites pending = new PendingWrites();
        final List<WriteBatch> live = new ArrayList<>();
        for (long id = 1; id <= 400; id++) {
            // starts out of id order and shared by several batches (overwrites), lengths up to 8 slots
            live.add(add(pending, id, random.nextInt(64), 1 + random.nextInt(8)));
            if (random.nextInt(3) == 0) {
                pending.remove(live.remove(random.nextInt(live.size())));
            }
            final long from = random.nextInt(72) * SLOT + random.nextInt(2) * 7L;
            final long to = from + (1 + random.nextInt(10)) * SLOT;
            final WriteBatch except = random.nextBoolean() ? null : live.get(random.nextInt(live.size()));
            assertEquals(scan(live, from, to, except), pending.overlapping(from, to, except), "[" + from + ", " + to
                + ") after batch " + id);
        }
        assertEquals(live, pending.all());
    }

    @Test
    void shouldAnswerNoneAndExcludeTheAskingBatch() {
        final PendingWrites pending = new PendingWrites();
        assertEquals(List.of(), pending.overlapping(0, SLOT, null), "nothing pending");
        final WriteBatch a = add(pending, 1, 4, 2);
        assertEquals(List.of(), pending.overlapping(0, 4 * SLOT, null), "ends where the batch starts");
        assertEquals(List.of(), pending.overlapping(6 * SLOT, 7 * SLOT, null), "starts where the batch ends");
        assertEquals(List.of(a), pending.overlapping(5 * SLOT, 5 * SLOT + 1, null), "its last slot");
        assertEquals(List.of(), pending.overlapping(4 * SLOT, 6 * SLOT, a), "the asking batch itself");
        assertEquals(List.of(), pending.overlapping(SLOT, SLOT, null), "an empty range");
    }

    @Test
    void shouldRejectAReversedRange() {
        final PendingWrites pending = new PendingWrites();
        add(pending, 1, 0, 1);
        assertThrows(IllegalArgumentException.class, () -> pending.overlapping(3 * SLOT, SLOT, null));
    }
}
