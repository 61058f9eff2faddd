package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.config.ReplacementKind;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Under PREFIX_LRU the victim is the entry of the oldest epoch: a later store's entries are newer than an earlier
 * store's, and a hit makes an entry the newest. Within one epoch the entry of the higher prefix index (the suffix) goes
 * first; headroom entries take their epoch from their load, a later load's being newer.
 */
class EvictionEpochTest {

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

    /** Feeds {@code events} to a fresh PREFIX_LRU checker; returns the invariant the last one fires, or null. */
    private static Invariant firesAtLast(final CoreEvent... events) {
        final EvictionOrderChecker c = new EvictionOrderChecker(ReplacementKind.PREFIX_LRU);
        final CheckContext ctx = new CheckContext(CONFIG);
        for (int i = 0; i < events.length - 1; i++) {
            c.onEvent(ctx, events[i]);
        }
        try {
            c.onEvent(ctx, events[events.length - 1]);
            return null;
        } catch (final InvariantViolation v) {
            return v.invariant();
        }
    }

    /** Under either order of insertion, the entry of the higher prefix index of one store goes first. */
    @Test
    void theHigherPrefixIndexOfOneStoreGoesFirstInWhicheverOrderInserted() {
        final CoreEvent received = new CoreEvent.StoreReceived(1, 2, 2 * S);
        final CoreEvent prefix = new CoreEvent.EntryInserted(1, 0, S, 0, 0, false, 1);
        final CoreEvent suffix = new CoreEvent.EntryInserted(1, S, S, S, S, false, 2);
        assertNull(firesAtLast(received, prefix, suffix, evicted(1), evicted(0)));
        assertNull(firesAtLast(received, suffix, prefix, evicted(1), evicted(0)));
        assertEquals(Invariant.VICTIM_ORDER, firesAtLast(received, prefix, suffix, evicted(0)));
        assertEquals(Invariant.VICTIM_ORDER, firesAtLast(received, suffix, prefix, evicted(0)));
    }

    @Test
    void theEarlierLoadsHeadroomEntryGoesFirst() {
        final CoreEvent first = new CoreEvent.EntryInserted(1, 0, S, 0, 0, true, 0);
        final CoreEvent second = new CoreEvent.EntryInserted(2, S, S, S, 0, true, 0);
        final CoreEvent[] loads = {new CoreEvent.LoadRequested(1, List.of(), S), first,
            new CoreEvent.LoadRequested(2, List.of(), S), second};
        assertNull(firesAtLast(concat(loads, headroomEvicted(0), headroomEvicted(1))));
        assertEquals(Invariant.VICTIM_ORDER, firesAtLast(concat(loads, headroomEvicted(1))));
    }

    private static CoreEvent headroomEvicted(final int slot) {
        return new CoreEvent.EntryEvicted(slot * S, S, slot * S, true, false, L1EvictReason.RESERVE);
    }

    private static CoreEvent[] concat(final CoreEvent[] head, final CoreEvent... tail) {
        final CoreEvent[] all = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    /** A load's headroom entries go by prefix index too, the higher first, though inserted later. */
    @Test
    void aLoadsHeadroomEntryOfTheHigherPrefixIndexGoesFirst() {
        final CoreEvent[] load = {new CoreEvent.LoadRequested(1, List.of(), 2 * S),
            new CoreEvent.EntryInserted(1, 0, S, 0, 0, true, 1), new CoreEvent.EntryInserted(1, S, S, S, 0, true, 2)};
        assertNull(firesAtLast(concat(load, headroomEvicted(1), headroomEvicted(0))));
        assertEquals(Invariant.VICTIM_ORDER, firesAtLast(concat(load, headroomEvicted(0))));
    }
}
