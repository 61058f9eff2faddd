package dev.kvtier.lab.explore;

import dev.kvtier.lab.run.SeedPlan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One seed, one run, whatever ran before it in the JVM: an exploration runs its seeds one after another in one JVM
 * (each seed's device storage goes to the next seed: {@link Explorer#runSeed}), and a seed's run must not see
 * anything of the seeds before it.
 */
class SeedOrderTest {
    private static final String SCENARIO = "pr90-evict-small";

    @Test
    void shouldGiveASeedTheSameRunAloneAndAfterOtherSeeds() throws ScenarioException {
        // Seeds 1-4 of pr90-evict-small's swarm: crashes (torn pages, reverts), faults and both commit modes.
        final List<RunReport> afterOthers = new ArrayList<>();
        for (long seed = 1; seed <= 4; seed++) {
            afterOthers.add(run(seed));
        }
        for (long seed = 4; seed >= 1; seed--) {
            final RunReport alone = run(seed);
            final RunReport first = afterOthers.get((int) seed - 1);
            assertEquals(first.eventDigest(), alone.eventDigest(), "seed " + seed);
            assertEquals(first, alone, "seed " + seed);
        }
    }

    private static RunReport run(final long seed) throws ScenarioException {
        final Scenario base = ScenarioLoader.load(SCENARIO, List.of());
        final SeedPlan plan = SeedPlan.draw(seed, base.swarm(), List.of());
        final Scenario sc = ScenarioLoader.load(SCENARIO, plan.sets());
        return Explorer.runSeed(sc, seed, event -> {});
    }
}
