package dev.kvtier.lab.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioLoader;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The held-out generator: seeded, wide, every shape a valid scenario that fits the machine's budget. */
class HeldOutDrawTest {
    private static final long GIB = 1L << 30;
    private static final HeldOutDraw.Budget BUDGET = new HeldOutDraw.Budget(9 * GIB, 40 * GIB);

    @Test
    void shouldDrawTheSameShapesFromTheSameSeedAndOthersFromAnother() {
        assertEquals(HeldOutDraw.draw(12, 7, BUDGET), HeldOutDraw.draw(12, 7, BUDGET));
        assertNotEquals(HeldOutDraw.draw(12, 7, BUDGET), HeldOutDraw.draw(12, 8, BUDGET));
        assertEquals("s7-01-", HeldOutDraw.draw(12, 7, BUDGET).getFirst().label().substring(0, 6));
    }

    @Test
    void shouldDrawValidScenariosThatFitTheBudget() throws Exception {
        for (final Matrix.HeldOut h : HeldOutDraw.draw(60, 3, BUDGET)) {
            final Scenario s = ScenarioLoader.load(h.scenario(), h.sets());
            final Map<String, String> k = knobs(h);
            if (h.label().endsWith("trace")) {
                continue;
            }
            final int prompts = Integer.parseInt(k.get("workload.prompts"));
            final long prompt = Integer.parseInt(k.get("workload.inputTokens")) * HeldOutDraw.KV_BYTES_PER_TOKEN;
            final long memory = (long) (Double.parseDouble(k.get("core.l1Fraction")) * prompts * prompt)
                + Long.parseLong(k.get("core.stagingPoolBytes"))
                + Integer.parseInt(k.get("workload.concurrency")) * prompt;
            assertTrue(memory <= BUDGET.memoryBytes(), h + " needs " + memory + " B of memory");
            assertTrue(s.name() != null, h.label());
        }
    }

    @Test
    void shouldSpanTheRangesTheIssueAsksFor() {
        final List<Matrix.HeldOut> many = HeldOutDraw.draw(300, 11, new HeldOutDraw.Budget(20 * GIB, 100 * GIB));
        final Set<String> families = new HashSet<>();
        int minTokens = Integer.MAX_VALUE;
        int maxTokens = 0;
        final Set<String> concurrency = new HashSet<>();
        final Set<String> values = new HashSet<>();
        for (final Matrix.HeldOut h : many) {
            families.add(h.label().substring(h.label().lastIndexOf('-') + 1));
            final Map<String, String> k = knobs(h);
            if (k.containsKey("workload.inputTokens")) {
                final int t = Integer.parseInt(k.get("workload.inputTokens"));
                minTokens = Math.min(minTokens, t);
                maxTokens = Math.max(maxTokens, t);
                concurrency.add(k.get("workload.concurrency"));
            }
            for (final String key : List.of("core.coalesceStoreSpans", "core.commitMode", "core.replacement",
                "core.stagingBatchBytes")) {
                if (k.containsKey(key)) {
                    values.add(key + "=" + k.get(key));
                }
            }
        }
        assertEquals(Set.of("evict", "zipf", "trace"), families);
        assertTrue(minTokens < 700 && maxTokens > 12_000, minTokens + " .. " + maxTokens + " tokens");
        assertTrue(concurrency.contains("1") && concurrency.contains("16"), concurrency.toString());
        assertTrue(values.containsAll(Set.of("core.coalesceStoreSpans=true", "core.coalesceStoreSpans=false",
            "core.commitMode=l1", "core.commitMode=durable", "core.replacement=lru", "core.replacement=prefix-lru",
            "core.stagingBatchBytes=37748736", "core.stagingBatchBytes=301989888")), values.toString());
    }

    @Test
    void shouldShrinkAShapeToASmallMachineAndRefuseATinyOne() {
        final HeldOutDraw.Budget small = new HeldOutDraw.Budget(2 * GIB, 2 * GIB);
        for (final Matrix.HeldOut h : HeldOutDraw.draw(40, 5, small)) {
            final Map<String, String> k = knobs(h);
            if (k.containsKey("core.l1Fraction")) {
                final int prompts = Integer.parseInt(k.get("workload.prompts"));
                final long prompt = Integer.parseInt(k.get("workload.inputTokens"))
                    * HeldOutDraw.KV_BYTES_PER_TOKEN;
                assertTrue(HeldOutDraw.fits(prompts, prompt, Integer.parseInt(k.get("workload.concurrency")),
                    Double.parseDouble(k.get("core.l1Fraction")), Double.parseDouble(k.get("core.l2Fraction")),
                    Long.parseLong(k.get("core.stagingPoolBytes")), small), h.toString());
            }
        }
        assertThrows(IllegalArgumentException.class, () -> new HeldOutDraw.Budget(GIB, 10 * GIB));
        assertThrows(IllegalArgumentException.class, () -> HeldOutDraw.draw(0, 1, BUDGET));
    }

    private static Map<String, String> knobs(final Matrix.HeldOut h) {
        final Map<String, String> out = new TreeMap<>();
        for (final String s : h.sets()) {
            out.put(s.substring(0, s.indexOf('=')), s.substring(s.indexOf('=') + 1));
        }
        return out;
    }
}
