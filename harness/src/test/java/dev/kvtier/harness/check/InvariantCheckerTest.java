package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The composite checker hands every event to every family and runs their end checks, a restart renews only the
 * checkers of one core's life; the liveness time bound and the structural cross-check fire through it.
 */
class InvariantCheckerTest {

    private static Invariant fired(final Executable run) {
        return assertThrows(InvariantViolation.class, run).invariant();
    }

    private static CoreEvent arrived(final long id) {
        return new CoreEvent.RequestArrived(id, "cold", 4, 0);
    }

    private static CoreEvent finished(final long id) {
        return new CoreEvent.RequestFinished(id, "cold", 0, true);
    }

    @Test
    void theStandardSetChecksEveryEventAndTheEnd() {
        final InvariantChecker structure = InvariantChecker.standard(CONFIG, () -> 0, () -> 0, () -> 0, 1_000);
        assertEquals(Invariant.ENTRIES_DISJOINT, fired(() -> structure.emit(
            new CoreEvent.EntryInserted(1, 0, S, 0, 0, false, 0))), "the core says it holds no entry");
        final InvariantChecker liveness = InvariantChecker.standard(CONFIG, () -> 0, () -> 0, () -> 0, 1_000);
        liveness.emit(arrived(1));
        liveness.emit(arrived(2));
        assertEquals(2, liveness.checked());
        assertEquals(2, liveness.context().sequence());
        assertEquals(Invariant.LIVENESS, fired(liveness::atEnd));
    }

    @Test
    void aRestartRenewsTheCheckersOfOneCoresLifeAndKeepsTheLastingOnes() {
        final InvariantChecker fresh = new InvariantChecker(CONFIG, () -> 0,
            () -> List.of(new LivenessChecker(1_000)), List.of());
        fresh.emit(arrived(1));
        fresh.restarted();
        assertDoesNotThrow(fresh::atEnd, "the dead core's request died with it");
        final InvariantChecker lasting = new InvariantChecker(CONFIG, () -> 0, List::of,
            List.of(new LivenessChecker(1_000)));
        lasting.emit(arrived(1));
        lasting.restarted();
        assertEquals(Invariant.LIVENESS, fired(lasting::atEnd));
        final InvariantChecker plain = new InvariantChecker(CONFIG, () -> 0, List.of(new LivenessChecker(1_000)));
        plain.emit(arrived(1));
        assertEquals(Invariant.LIVENESS, fired(plain::atEnd));
    }

    /** Bound 1000 ns for requests arriving at or after 500 ns (faults stopped then). */
    @Test
    void livenessFiresWhenARequestTakesLongerThanTheBound() {
        final long[] now = {0};
        final InvariantChecker c = new InvariantChecker(CONFIG, () -> now[0],
            List.of(new LivenessChecker(1_000, 500)));
        now[0] = 499;
        c.emit(arrived(1));
        now[0] = 500;
        c.emit(arrived(2));
        now[0] = 1_500;
        c.emit(finished(2));
        now[0] = 9_000;
        c.emit(finished(1));
        c.emit(arrived(3));
        now[0] = 10_001;
        assertEquals(Invariant.LIVENESS, fired(() -> c.emit(finished(3))));
        final InvariantChecker late = new InvariantChecker(CONFIG, () -> now[0],
            List.of(new LivenessChecker(1_000, 500)));
        now[0] = 500;
        late.emit(arrived(1));
        now[0] = 1_501;
        assertEquals(Invariant.LIVENESS, fired(() -> late.emit(finished(1))), "arrived as faults stopped");
    }

    @Test
    void livenessFiresOnAFinishWithoutArrivalAReleaseWithoutSaveOrACommitBeforeRelease() {
        final LivenessChecker ok = new LivenessChecker(1_000);
        final CheckContext ctx = new CheckContext(CONFIG);
        ok.onEvent(ctx, new CoreEvent.SaveQueued(5, List.of(), 0, 0));
        ok.onEvent(ctx, new CoreEvent.RequestReleased(5));
        ok.onEvent(ctx, new CoreEvent.RequestCommitted(5, 0, 0));
        ok.atEnd(ctx);
        assertEquals(Invariant.LIVENESS, fired(() -> new LivenessChecker(1_000).onEvent(ctx, finished(1))));
        assertEquals(Invariant.LIVENESS, fired(() -> new LivenessChecker(1_000).onEvent(ctx,
            new CoreEvent.RequestReleased(5))));
        final LivenessChecker early = new LivenessChecker(1_000);
        early.onEvent(ctx, new CoreEvent.SaveQueued(5, List.of(), 0, 0));
        assertEquals(Invariant.LIVENESS, fired(() -> early.onEvent(ctx, new CoreEvent.RequestCommitted(5, 0, 0))));
        final LivenessChecker twice = new LivenessChecker(1_000);
        twice.onEvent(ctx, arrived(1));
        assertEquals(Invariant.LIVENESS, fired(() -> twice.onEvent(ctx, arrived(1))));
    }

    /** The structural shadow follows inserts and evictions and must agree with the core's counts after each. */
    @Test
    void structureFollowsEvictionsAndFiresOnOneThatIsNotResident() {
        final long[] entries = {0};
        final long[] resident = {0};
        final StructureChecker c = structureWithTwoEntries(entries, resident);
        final CheckContext ctx = new CheckContext(CONFIG);
        entries[0] = 1;
        resident[0] = S;
        c.onEvent(ctx, new CoreEvent.EntryEvicted(S, 2 * S, 0, false, false, L1EvictReason.TRIM));
        assertEquals(Map.of(3 * S, S), c.shadow());
        assertEquals(Invariant.ENTRIES_DISJOINT, fired(() -> c.onEvent(ctx,
            new CoreEvent.EntryEvicted(S, S, 0, false, false, L1EvictReason.TRIM))), "not resident");
        // A core that evicts [S, +2S) as S bytes and counts it so: only the length tells.
        final StructureChecker wrong = structureWithTwoEntries(entries, resident);
        entries[0] = 1;
        resident[0] = 2 * S;
        assertEquals(Invariant.ENTRIES_DISJOINT, fired(() -> wrong.onEvent(ctx,
            new CoreEvent.EntryEvicted(S, S, 0, false, false, L1EvictReason.TRIM))), "another length");
    }

    /** Entries [S, +2S) and [3S, +S), the core agreeing after each. */
    private static StructureChecker structureWithTwoEntries(final long[] entries, final long[] resident) {
        final StructureChecker c = new StructureChecker(() -> entries[0], () -> resident[0]);
        final CheckContext ctx = new CheckContext(CONFIG);
        entries[0] = 1;
        resident[0] = 2 * S;
        c.onEvent(ctx, new CoreEvent.EntryInserted(1, S, 2 * S, 0, 0, false, 0));
        entries[0] = 2;
        resident[0] = 3 * S;
        c.onEvent(ctx, new CoreEvent.EntryInserted(1, 3 * S, S, 0, 0, false, 1));
        return c;
    }

    /** Inserts {@code [offset, +length)} entries in turn, the core's counts agreeing after each. */
    private static void insertAgreeing(final long[]... entries) {
        final long[] counts = {0, 0};
        final StructureChecker c = new StructureChecker(() -> counts[0], () -> counts[1]);
        final CheckContext ctx = new CheckContext(CONFIG);
        for (final long[] e : entries) {
            counts[0]++;
            counts[1] += e[1];
            c.onEvent(ctx, new CoreEvent.EntryInserted(1, e[0], e[1], 0, 0, false, 0));
        }
    }

    /** The core agrees on the counts, so only the overlap itself tells. */
    @Test
    void structureFiresOnOverlapFromEitherSideAndLetsEntriesTouch() {
        insertAgreeing(new long[] {0, S}, new long[] {2 * S, S}, new long[] {S, S});
        assertEquals(Invariant.ENTRIES_DISJOINT, fired(() -> insertAgreeing(new long[] {S, S},
            new long[] {0, 2 * S})), "a resident entry starts inside the new one");
        assertEquals(Invariant.ENTRIES_DISJOINT, fired(() -> insertAgreeing(new long[] {0, 2 * S},
            new long[] {S, S})), "a resident entry reaches into the new one");
    }
}
