package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Invariant 15's checker fires on what a core that loses durable commits would do, and only then. */
class CrashCheckerTest {
    private static final PrefixKey K = new PrefixKey(7, 7);
    private static final AllocationRef REF = new AllocationRef(K, 3, 5, 1);

    private static CheckContext committed(final CrashChecker c) {
        final CheckContext ctx = new CheckContext(CONFIG);
        c.onEvent(ctx, new CoreEvent.Allocated(1, K, 3, 5, 1));
        c.onEvent(ctx, new CoreEvent.Committed(K, 3));
        return ctx;
    }

    @Test
    void shouldFireWhenADurableCommitIsMissingAfterRecovery() {
        final CrashChecker c = new CrashChecker(true, ref -> false);
        final CheckContext ctx = committed(c);
        c.crashed();
        final InvariantViolation v = assertThrows(InvariantViolation.class, () -> c.recovered(ctx, ref -> false));
        assertEquals(Invariant.CRASH, v.invariant());
        assertDoesNotThrow(() -> c.recovered(ctx, REF::equals));
    }

    @Test
    void aCheckerToldTheRunNeverCrashesKeepsNothingAndRefusesACrash() {
        final CrashChecker c = new CrashChecker(true, ref -> false);
        c.neverCrashes();
        final CheckContext ctx = committed(c);
        assertThrows(IllegalStateException.class, c::crashed);
        assertDoesNotThrow(() -> c.recovered(ctx, ref -> false));
        final CrashChecker late = new CrashChecker(true, ref -> false);
        committed(late);
        assertThrows(IllegalStateException.class, late::neverCrashes);
    }

    @Test
    void shouldNotExpectL1CommitsOrEvictedKeysToSurvive() {
        final CrashChecker l1 = new CrashChecker(false, ref -> false);
        final CheckContext ctx = committed(l1);
        l1.crashed();
        assertDoesNotThrow(() -> l1.recovered(ctx, ref -> false));
        final CrashChecker durable = new CrashChecker(true, ref -> false);
        final CheckContext ctx2 = committed(durable);
        durable.onEvent(ctx2, new CoreEvent.RingEvicted(K, 3, 5, 1, true, 0, RingEvictReason.SPACE));
        durable.crashed();
        assertDoesNotThrow(() -> durable.recovered(ctx2, ref -> false));
    }

    @Test
    void shouldFireWhenASurvivorFailsItsChecksumWithoutADeviceFault() {
        final CrashChecker c = new CrashChecker(true, ref -> false);
        final CheckContext ctx = committed(c);
        c.crashed();
        c.recovered(ctx, REF::equals);
        final CoreEvent lost = new CoreEvent.RingEvicted(K, 3, 5, 1, true, 1, RingEvictReason.CORRUPT);
        assertEquals(Invariant.CRASH, assertThrows(InvariantViolation.class, () -> c.onEvent(ctx, lost)).invariant());
        final CrashChecker excused = new CrashChecker(true, REF::equals);
        final CheckContext ctx2 = committed(excused);
        excused.crashed();
        excused.recovered(ctx2, REF::equals);
        assertDoesNotThrow(() -> excused.onEvent(ctx2, lost));
    }

    @Test
    void shouldListTheSurvivorsInTheOrderTheirKeysWereFirstCommitted() {
        final CrashChecker c = new CrashChecker(true, ref -> false);
        final CheckContext ctx = new CheckContext(CONFIG);
        final List<PrefixKey> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            keys.add(new PrefixKey(1000 - 17L * i, i));
        }
        long id = 100;
        final Map<PrefixKey, AllocationRef> model = new LinkedHashMap<>();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < keys.size(); i += 1 + round) {
                final PrefixKey k = keys.get(i);
                final AllocationRef ref = new AllocationRef(k, ++id, i, 1);
                c.onEvent(ctx, new CoreEvent.Allocated(1, k, id, i, 1));
                c.onEvent(ctx, new CoreEvent.Committed(k, id));
                model.put(k, ref);
                if (i % 5 == round) {
                    c.onEvent(ctx, new CoreEvent.RingEvicted(k, id, i, 1, true, 0, RingEvictReason.SPACE));
                    model.remove(k);
                }
            }
        }
        c.crashed();
        assertEquals(new ArrayList<>(model.values()), c.mustSurvive(), "insertion order, as a LinkedHashMap keeps it");
    }

    @Test
    void shouldCountItsCrashesAndTheSurvivorsItCheckedOrExcused() {
        final boolean[] indexFaulted = {false};
        final CrashChecker c = new CrashChecker(true, ref -> false, () -> indexFaulted[0]);
        final CheckContext ctx = committed(c);
        assertFalse(c.afterCrash());
        assertEquals(0, c.crashes());
        c.crashed();
        assertTrue(c.afterCrash(), "wrong bytes are invariant 15 from now on");
        assertEquals(1, c.crashes());
        indexFaulted[0] = true;
        assertDoesNotThrow(() -> c.recovered(ctx, ref -> false), "the index device flipped bytes: excused");
        assertEquals(1, c.survivorsChecked());
        assertEquals(1, c.survivorsExcused());
        assertEquals(List.of(), c.mustSurvive());
    }

    /** A recovered chunk that was owed is owed again at the next crash; one of another allocation is not. */
    @Test
    void shouldKeepARecoveredSurvivorOwedAcrossTheNextCrash() {
        final CrashChecker c = new CrashChecker(true, ref -> false);
        final CheckContext ctx = committed(c);
        c.crashed();
        c.recovered(ctx, REF::equals);
        c.onEvent(ctx, new CoreEvent.ChunkRecovered(K, 1, 3, 5, 1));
        c.crashed();
        assertEquals(List.of(REF), c.mustSurvive());
        assertEquals(Invariant.CRASH,
            assertThrows(InvariantViolation.class, () -> c.recovered(ctx, ref -> false)).invariant());
        final CrashChecker other = new CrashChecker(true, ref -> false);
        final CheckContext ctx2 = committed(other);
        other.crashed();
        other.onEvent(ctx2, new CoreEvent.ChunkRecovered(K, 1, 4, 5, 1));
        other.crashed();
        assertEquals(List.of(), other.mustSurvive(), "allocation 4 was never acknowledged");
    }

    @Test
    void shouldStillOweACommitWhoseClaimReleaseWasRefused() {
        final CrashChecker c = new CrashChecker(true, ref -> false);
        final CheckContext ctx = new CheckContext(CONFIG);
        c.onEvent(ctx, new CoreEvent.Allocated(1, K, 3, 5, 1));
        c.onEvent(ctx, new CoreEvent.ClaimReleased(REF, false));
        c.onEvent(ctx, new CoreEvent.Committed(K, 3));
        c.crashed();
        assertEquals(List.of(REF), c.mustSurvive());
    }

    @Test
    void shouldNotOweAChunkCommittedWithASlotNoStoreCovered() {
        final long slot = CONFIG.slotBytes();
        for (final int storedSlots : new int[] {2, 3}) {
            final CrashChecker c = new CrashChecker(true, ref -> false);
            final CheckContext ctx = new CheckContext(CONFIG);
            final AllocationRef three = new AllocationRef(K, 3, 5, 3);
            c.onEvent(ctx, new CoreEvent.Allocated(1, K, 3, 5, 3));
            c.onEvent(ctx, new CoreEvent.StoreSent(9, List.of(new SpanPiece(three, 0, 5 * slot, storedSlots * slot))));
            c.onEvent(ctx, new CoreEvent.StoreCompleted(9, 1, 0, storedSlots * slot));
            c.onEvent(ctx, new CoreEvent.Committed(K, 3));
            c.crashed();
            assertEquals(storedSlots == 3 ? List.of(three) : List.of(), c.mustSurvive(),
                storedSlots + " of 3 slots stored: a slot no store covered has no checksum, the key never loaded");
        }
    }
}
