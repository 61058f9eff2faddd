package dev.kvtier.lab.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.scenarios.ScenarioLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every bundled scenario against its committed performance baseline (results/baselines): virtual time is exact, so a
 * figure outside its band is a change of behaviour that must be reviewed and committed with a new baseline.
 */
class BaselinesTest {
    @Test
    void shouldKeepEveryBundledScenarioWithinItsBaseline() throws Exception {
        final Path dir = repositoryRoot().resolve(Baselines.DIR);
        final List<String> problems = new ArrayList<>();
        for (final String name : ScenarioLoader.LIBRARY) {
            final Baseline was = Baselines.read(dir, name);
            assertNotNull(was, "no committed baseline for " + name + " in " + dir + ": " + Baseline.UPDATE_COMMAND);
            problems.addAll(was.differences(Baselines.measure(name)));
        }
        assertEquals(List.of(), problems, String.join("\n", problems) + "\nif intended: " + Baseline.UPDATE_COMMAND
            + ", and commit results/baselines with the reason");
    }

    @Test
    void shouldNameTheFigureItsOldAndNewValueWhenAFigureLeavesItsBand() {
        final Map<String, Double> before = new LinkedHashMap<>();
        before.put("ttft.cold.mean", 2_743_500_000.0);
        before.put("l1HitRatio", 0.855);
        final Map<String, Double> after = new LinkedHashMap<>(before);
        after.put("ttft.cold.mean", 2_900_000_000.0);
        after.put("l1HitRatio", 0.72);
        final List<String> d = new Baseline("s", 1, before).differences(new Baseline("s", 1, after));
        assertEquals(2, d.size(), d.toString());
        assertTrue(d.get(0).contains("ttft.cold.mean changed from 2743.500 ms to 2900.000 ms (+5.70 %, band ±1.0 %)"),
            d.get(0));
        assertTrue(d.get(1).contains("l1HitRatio changed from 0.8550 to 0.7200"), d.get(1));
    }

    @Test
    void shouldAcceptAChangeWithinItsBand() {
        final Map<String, Double> before = Map.of("storeAck.p99", 1_000_000.0);
        final Map<String, Double> after = Map.of("storeAck.p99", 1_009_000.0);
        assertEquals(List.of(), new Baseline("s", 1, before).differences(new Baseline("s", 1, after)));
    }

    private static Path repositoryRoot() {
        final Path here = Path.of("").toAbsolutePath();
        return Files.exists(here.resolve("results")) ? here : here.getParent();
    }
}
