package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;
import org.junit.jupiter.api.Test;

/**
 * The capacity checker at exactly its bounds: a store that leaves exactly its trim bound resident, L1 filled exactly
 * after an eviction, pool leases up to exactly the pool (one more slice fires), and a trim that stops exactly at its
 * target (one victim more fires: the lower bound). L1 is 4 slots, saveTarget 3.
 */
class CapacityEdgesTest {

    private static CoreEvent inserted(final long store, final long offset) {
        return new CoreEvent.EntryInserted(store, offset, S, offset, 0, false, 0);
    }

    @Test
    void aStoreMayLeaveExactlyItsTrimBoundAndL1FillsExactlyAfterAnEviction() {
        final CapacityChecker c = new CapacityChecker(new CheckContext(CONFIG));
        final CheckContext ctx = new CheckContext(CONFIG);
        for (final CoreEvent e : new CoreEvent[] {inserted(1, 0), inserted(1, S), inserted(1, 2 * S),
            new CoreEvent.Trimmed(1, 3 * S, 3 * S, 3 * S, 0), new CoreEvent.StoreCompleted(1, 3, 0, 3 * S),
            new CoreEvent.EntryEvicted(0, S, 0, false, false, L1EvictReason.TRIM), inserted(2, 3 * S),
            inserted(2, 4 * S)}) {
            c.onEvent(ctx, e);
        }
        assertEquals(4 * S, c.resident());
    }

    @Test
    void poolLeasesMayFillThePoolExactlyAndNoMore() {
        final CapacityChecker c = new CapacityChecker(new CheckContext(CONFIG));
        final CheckContext ctx = new CheckContext(CONFIG);
        c.onEvent(ctx, new CoreEvent.SliceReserved(1, 0, 2 * S, 0));
        c.onEvent(ctx, new CoreEvent.SliceReserved(1, 2 * S, 2 * S, 2 * S));
        c.onEvent(ctx, new CoreEvent.SliceFreed(0, 2 * S));
        c.onEvent(ctx, new CoreEvent.SliceReserved(2, 0, S, 0));
        assertEquals(3 * S, c.leased());
        assertEquals(Invariant.CAPACITY, assertThrows(InvariantViolation.class,
            () -> c.onEvent(ctx, new CoreEvent.SliceReserved(3, S, 2 * S, S))).invariant());
    }

    /** Store 1 fills three slots; store 2 adds a fourth, so its trim (target max(1, 3) = 3 slots) evicts one. */
    private static CoreEvent[] fourResident() {
        return new CoreEvent[] {inserted(1, 0), inserted(1, S), inserted(1, 2 * S),
            new CoreEvent.Trimmed(1, 3 * S, 3 * S, 3 * S, 0), new CoreEvent.StoreCompleted(1, 3, 0, 3 * S),
            inserted(2, 3 * S)};
    }

    private static CoreEvent trimVictim(final long offset) {
        return new CoreEvent.EntryEvicted(offset, S, offset, false, false, L1EvictReason.TRIM);
    }

    private static void feed(final CapacityChecker c, final CheckContext ctx, final CoreEvent... events) {
        for (final CoreEvent e : events) {
            c.onEvent(ctx, e);
        }
    }

    @Test
    void aTrimStopsAsSoonAsResidentIsAtItsTargetAndOneMoreVictimFires() {
        final CheckContext ctx = new CheckContext(CONFIG);
        final CapacityChecker exact = new CapacityChecker(ctx);
        feed(exact, ctx, fourResident());
        feed(exact, ctx, trimVictim(0), new CoreEvent.SliceFreed(0, S), new CoreEvent.Trimmed(2, 3 * S, 4 * S, 3 * S,
            1), new CoreEvent.StoreCompleted(2, 1, 0, S));
        assertEquals(3 * S, exact.resident());

        final CapacityChecker over = new CapacityChecker(ctx);
        feed(over, ctx, fourResident());
        // The second victim goes with 3 slots resident, already the target: within the upper bound, but it costs a hit.
        feed(over, ctx, trimVictim(0), new CoreEvent.SliceFreed(0, S), trimVictim(S), new CoreEvent.SliceFreed(S, S));
        final InvariantViolation v = assertThrows(InvariantViolation.class,
            () -> over.onEvent(ctx, new CoreEvent.Trimmed(2, 3 * S, 4 * S, 2 * S, 2)));
        assertEquals(Invariant.TRIM_BOUND, v.invariant());
        assertTrue(v.getMessage().contains("at file offset " + S), v.getMessage());
    }
}
