package dev.kvtier.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.sim.device.CrashOutcome;
import dev.kvtier.sim.device.FaultPlan;
import java.util.List;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The crash-point sweep (issue 8): a small workload crashed at every core event in turn, in both commit modes. Each
 * crash loses the core's volatile state and tears or loses the devices' unflushed writes; the restarted core
 * recovers its index and the workload goes on. Every run must finish (invariant 16) with no wrong byte served and,
 * in {@code durable} mode, every commit made before the crash still in the index (invariant 15).
 */
class CrashSweepTest {
    /** Three prompts of 16 blocks, one lane, L1 = 90 % of the workload: small enough to crash at every event. */
    static SimSpec tiny(final CommitMode mode, final FaultPlan faults) {
        final SimSpec s = Specs.small(3, 1);
        return new SimSpec("tiny-" + mode, s.core().toBuilder().commitMode(mode).build(), s.device(), s.host(),
            s.workload(), s.maxEvents(), s.livenessBoundNs(), faults);
    }

    @ParameterizedTest
    @EnumSource(CommitMode.class)
    void shouldNeverServeWrongBytesNorLoseDurableCommitsWhereverTheCrashFalls(final CommitMode mode) {
        final RunReport clean = new SimRun(tiny(mode, FaultPlan.NONE), 11, List.of()).run();
        assertNull(clean.violation(), clean.violation());
        final long events = clean.events();
        long survivorsChecked = 0;
        long torn = 0;
        long lostPages = 0;
        for (long at = 0; at < events; at++) {
            final SimRun run = new SimRun(tiny(mode, FaultPlan.NONE.withCrashAtEvent(at)), 11, List.of());
            final RunReport r = run.run();
            assertNull(r.violation(), "crash at event " + at + " of " + events + ": " + r.violation());
            assertEquals(1, run.crashChecker().crashes(), "crashed at event " + at);
            assertEquals(0, r.metrics().wrongBytes());
            survivorsChecked += run.crashChecker().survivorsChecked();
            for (final CrashOutcome o : new CrashOutcome[] {run.dataCrash(), run.indexCrash()}) {
                torn += o.pagesTorn();
                lostPages += o.pagesLost();
            }
        }
        System.out.printf("crash sweep %s: %d crash points, %d durable commits checked after restart, %d pages"
            + " torn, %d pages lost%n", mode, events, survivorsChecked, torn, lostPages);
        assertTrue(torn > 0 && lostPages > 0, "the sweep tore and lost unflushed pages");
        if (mode == CommitMode.DURABLE) {
            assertTrue(survivorsChecked > 0, "durable commits were checked after restarts");
        }
    }

    /**
     * The deep sweep ({@code -Dkvtier.deep=true}, not in the default run): 32 prompts on four lanes, crashed at
     * every event, with I/O errors and silent corruption injected as well.
     */
    @ParameterizedTest
    @EnumSource(CommitMode.class)
    @EnabledIfSystemProperty(named = "kvtier.deep", matches = "true")
    void shouldHoldUnderFaultsAtEveryCrashPointOfALargerWorkload(final CommitMode mode) {
        final FaultPlan faults = new FaultPlan(20_000, 20_000, 0, 0, 1, Long.MAX_VALUE)
            .withCorruptionsPerMillion(20_000);
        final SimSpec base = Specs.small(32, 4);
        final SimSpec spec = new SimSpec("deep-" + mode, base.core().toBuilder().commitMode(mode).build(),
            base.device(), base.host(), base.workload(), base.maxEvents(), base.livenessBoundNs(), faults);
        final RunReport clean = new SimRun(spec, 13, List.of()).run();
        assertNull(clean.violation(), clean.violation());
        long injected = 0;
        for (long at = 0; at < clean.events(); at++) {
            final SimSpec crashing = new SimSpec(spec.scenario(), spec.core(), spec.device(), spec.host(),
                spec.workload(), spec.maxEvents(), spec.livenessBoundNs(), faults.withCrashAtEvent(at));
            final SimRun run = new SimRun(crashing, 13, List.of());
            final RunReport r = run.run();
            assertNull(r.violation(), "crash at event " + at + ": " + r.violation());
            injected += run.device().injectedErrors() + run.device().injectedCorruptions();
        }
        System.out.printf("deep crash sweep %s: %d crash points, %d faults injected%n", mode, clean.events(),
            injected);
    }
}
