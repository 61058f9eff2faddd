package dev.kvtier.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.metrics.RunMetrics.Percentiles;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The summary's distributions: every percentile with the count behind it, and the ones resting on too few. */
class RunSummaryTest {
    private static Percentiles of(final long count) {
        return new Percentiles(count, 1_000_000, 2_000_000, 3_000_000, 4_000_000, 5_000_000, 6_000_000, 1_500_000,
            List.of());
    }

    @Test
    void shouldMarkEveryPercentileThatRestsOnFewerSamplesThanItNeeds() {
        final String line = RunSummary.distribution(of(16), "requests");
        assertEquals("mean 1.500 ms  p50 1.000 ms  p90 2.000 ms  p95 3.000 ms*  p99 4.000 ms*  p99.9 5.000 ms*  max "
            + "6.000 ms  (16 requests; * fewer than 1 / (1 - q) samples)", line);
    }

    @Test
    void shouldMarkNoneWithEnoughSamples() {
        final String line = RunSummary.distribution(of(1000), "loads");
        assertFalse(line.contains("*"), line);
        assertTrue(line.endsWith("(1,000 loads)"), line);
        assertTrue(of(999).thin(0.999) && !of(1000).thin(0.999) && of(99).thin(0.99) && !of(100).thin(0.99));
    }
}
