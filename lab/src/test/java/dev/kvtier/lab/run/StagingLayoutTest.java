package dev.kvtier.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
 * The second client's staging layout (issue 36, planted bug 10): a connector that lays a batch's pieces out in the
 * reverse of the order it sends them. Spans of consecutive keys adjacent in the file are then apart in source, the
 * one case where the coalescer's source check decides. Both bundled swarms that draw it reach that case, every
 * checker passes under it, and a plain run stays packed.
 */
class StagingLayoutTest {
    private static final String PROBE = "client.apart-in-source";

    private static RunReport run(final String scenario, final List<String> sets) throws ScenarioException {
        final Scenario sc = ScenarioLoader.load(scenario, sets);
        final RunReport r = new SimRun(sc.spec(), sc.sim(), 3, List.of()).run();
        assertTrue(r.ok(), r.violation());
        return r;
    }

    private static long probe(final RunReport r, final String name) {
        return r.probes().getOrDefault(name, 0L);
    }

    @Test
    void shouldReachSpansApartInSourceOnlyUnderTheReversedLayout() throws ScenarioException {
        for (final String scenario : List.of("pr90-evict-small", "rare-paths")) {
            final RunReport packed = run(scenario, List.of("core.coalesceStoreSpans=true"));
            assertFalse(packed.probes().containsKey(PROBE), scenario + ": " + packed.probes());
            assertTrue(probe(packed, "span.coalesced") > 0, scenario + ": " + packed.probes());
            final RunReport reversed = run(scenario, List.of("core.coalesceStoreSpans=true",
                "core.stagingLayout=reversed"));
            assertTrue(probe(reversed, PROBE) > 0, scenario + ": " + reversed.probes());
        }
    }

    /**
     * With coalescing off and plain LRU the layout moves only source offsets: the same bytes are stored, loaded and
     * hit, with every byte checked, and the runs differ (their events carry the offsets).
     */
    @Test
    void shouldStoreAndLoadTheSameBytesUnderEitherLayoutWithCoalescingOff() throws ScenarioException {
        final RunReport packed = run("pr90-evict-small", List.of("core.coalesceStoreSpans=false",
            "core.replacement=lru"));
        final RunReport reversed = run("pr90-evict-small", List.of("core.coalesceStoreSpans=false",
            "core.replacement=lru", "core.stagingLayout=reversed"));
        assertEquals(packed.metrics().storedBytes(), reversed.metrics().storedBytes());
        assertEquals(packed.metrics().loadedBytes(), reversed.metrics().loadedBytes());
        assertEquals(packed.metrics().l1HitRatio(), reversed.metrics().l1HitRatio());
        assertEquals(0, reversed.metrics().wrongBytes());
        assertNotEquals(packed.eventDigest(), reversed.eventDigest());
    }

    @Test
    void shouldDrawTheReversedLayoutInSomeOfTheFirstSeeds() throws ScenarioException {
        for (final String scenario : List.of("pr90-evict-small", "rare-paths")) {
            final Scenario sc = ScenarioLoader.load(scenario, List.of());
            final Set<String> drawn = new HashSet<>();
            for (long seed = 1; seed <= 20; seed++) {
                drawn.addAll(SeedPlan.draw(seed, sc.swarm(), List.of()).draws());
            }
            assertTrue(drawn.contains("core.stagingLayout=reversed"), scenario + ": drawn by none of seeds 1-20");
        }
    }
}
