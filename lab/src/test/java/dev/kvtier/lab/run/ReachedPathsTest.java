package dev.kvtier.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import dev.kvtier.sim.run.SimRun;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The swarm dimensions that reach the paths four planted bugs need (issue 36 item 3), on the rare-paths scenario: a
 * staging batch that is not a whole number of slots, a spec sent one slot late (an allocation admitted in one staging
 * batch and refused in another), a spec that leaves out its chunk's last block (a committed slot without a checksum),
 * and an L1 of one and a half slots with coalescing off (a store parks on memory its own open batch holds). Each is
 * drawn by the bundled swarm, reaches its probe when set, and stays off in a plain run.
 */
class ReachedPathsTest {
    private static final List<String> PROBES = List.of("client.part-slot-batch", "client.partly-rejected",
        "load.uncovered-slot", "seal.at-park");

    private static RunReport run(final List<String> sets) throws ScenarioException {
        final Scenario sc = ScenarioLoader.load("rare-paths", sets);
        final RunReport r = new SimRun(sc.spec(), sc.sim(), 2, List.of()).run();
        assertTrue(r.ok(), r.violation());
        return r;
    }

    private static long probe(final RunReport r, final String name) {
        return r.probes().getOrDefault(name, 0L);
    }

    @Test
    void shouldLeaveEveryDimensionOffInAPlainRun() throws ScenarioException {
        final RunReport r = run(List.of());
        for (final String p : PROBES) {
            assertFalse(r.probes().containsKey(p), p + " in " + r.probes());
        }
    }

    @Test
    void shouldDrawEachDimensionInSomeOfTheFirstSeeds() throws ScenarioException {
        final Scenario sc = ScenarioLoader.load("rare-paths", List.of());
        final List<String> wanted = List.of("core.stagingBatchBytes=229376", "engine.shiftedSpecEvery=4",
            "engine.shortSpecEvery=6", "core.l1Fraction=0.004");
        final Set<String> drawn = new HashSet<>();
        for (long seed = 1; seed <= 20; seed++) {
            drawn.addAll(SeedPlan.draw(seed, sc.swarm(), List.of()).draws());
        }
        for (final String w : wanted) {
            assertTrue(drawn.contains(w), w + " drawn by none of seeds 1-20");
        }
    }

    @Test
    void shouldBoundABatchToTheWholeSlotsOfAPartSlotBudget() throws ScenarioException {
        final Scenario sc = ScenarioLoader.load("rare-paths", List.of("core.stagingBatchBytes=229376"));
        assertEquals(3, sc.spec().core().stagingBatchSlots(), "3.5 slots of 64 KiB hold 3 whole slots");
        final RunReport r = run(List.of("core.stagingBatchBytes=229376"));
        assertTrue(probe(r, "client.part-slot-batch") > 0, r.probes().toString());
    }

    @Test
    void shouldNotCommitAnAllocationRefusedInOneBatchAndAdmittedInAnother() throws ScenarioException {
        final RunReport r = run(List.of("engine.shiftedSpecEvery=4", "engine.blocksPerKey=3",
            "core.stagingBatchBytes=65536"));
        assertTrue(probe(r, "client.partly-rejected") > 0, r.probes().toString());
        assertTrue(probe(r, "span.reject.outside-allocation") > 0, r.probes().toString());
    }

    @Test
    void shouldFailEveryLoadOfAChunkWithASlotNoStoreCovered() throws ScenarioException {
        final RunReport r = run(List.of("engine.shortSpecEvery=6", "engine.blocksPerKey=3"));
        assertTrue(probe(r, "load.uncovered-slot") > 0, r.probes().toString());
        assertTrue(probe(r, "load.fail.corrupt") >= probe(r, "load.uncovered-slot"), r.probes().toString());
    }

    @Test
    void shouldSealItsOwnBatchBeforeParkingWhenNothingIsLeftToEvict() throws ScenarioException {
        final RunReport r = run(List.of("core.l1Fraction=0.004", "core.coalesceStoreSpans=false"));
        assertTrue(probe(r, "seal.at-park") > 0, r.probes().toString());
    }
}
