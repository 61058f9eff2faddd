package dev.kvtier.harness.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.config.ReplacementKind;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;
import org.junit.jupiter.api.Test;

/**
 * Under PREFIX_LRU the victim is the entry of the oldest epoch: a later store's entries are newer than an earlier
 * store's, and a hit makes an entry the newest.
 */
class EvictionEpochTest {
    private static final long S = 4096;
    private static final CoreConfig CONFIG = CoreConfig.builder(S).l2Bytes(64 * S).l1Bytes(4 * S)
        .stagingBatchBytes(2 * S).stagingPoolBytes(4 * S).build();

    private static CoreEvent stored(final long store, final int slot) {
        return new CoreEvent.EntryInserted(store, slot * S, S, slot * S, 0, false, 0);
    }

    private static CoreEvent evicted(final int slot) {
        return new CoreEvent.EntryEvicted(slot * S, S, slot * S, false, false, L1EvictReason.TRIM);
    }

    /** Entries of store 1 at slot 0 and of store 2 at slot 1; then {@code rest}. */
    private static void feed(final CoreEvent... rest) {
        final EvictionOrderChecker c = new EvictionOrderChecker(ReplacementKind.PREFIX_LRU);
        final CheckContext ctx = new CheckContext(CONFIG);
        for (final CoreEvent e : new CoreEvent[] {new CoreEvent.StoreReceived(1, 1, S), stored(1, 0),
            new CoreEvent.StoreReceived(2, 1, S), stored(2, 1)}) {
            c.onEvent(ctx, e);
        }
        for (final CoreEvent e : rest) {
            c.onEvent(ctx, e);
        }
    }

    @Test
    void theEarlierStoresEntryGoesFirst() {
        feed(evicted(0), evicted(1));
        assertEquals(Invariant.VICTIM_ORDER, assertThrows(InvariantViolation.class, () -> feed(evicted(1)))
            .invariant());
    }

    @Test
    void aHitMakesAnEntryTheNewest() {
        feed(new CoreEvent.LoadHit(3, 0, S), evicted(1), evicted(0));
        assertEquals(Invariant.VICTIM_ORDER, assertThrows(InvariantViolation.class,
            () -> feed(new CoreEvent.LoadHit(3, 0, S), evicted(0))).invariant());
    }
}
