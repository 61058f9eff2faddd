package dev.kvtier.harness.run;

import dev.kvtier.harness.metrics.L2Traffic;
import dev.kvtier.harness.metrics.RunMetrics.EnginePhase;
import dev.kvtier.harness.metrics.RunMetrics.Percentiles;
import dev.kvtier.harness.metrics.RunMetrics.RequestPhase;
import dev.kvtier.harness.metrics.TokenSources;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The result of one run, in the shape the CLI writes as JSON.
 *
 * @param scenario            scenario name
 * @param mode                how the run kept time (written {@code virtual} or {@code real})
 * @param seed                the root seed
 * @param events              core and driver events emitted
 * @param elapsedNanos        the run's elapsed time on its clock: virtual time in mode {@code virtual}, wall time (from
 *                            the workload's start to its end) in mode {@code real}
 * @param eventDigest         XXH3-128 (EventDigest) over the canonical encoding of every event with its time, in order
 * @param invariantViolations 0, or 1 with {@code violation} saying which
 * @param violation           the first violation's message, or null
 * @param metrics             the figures
 * @param phases              each phase's name and duration
 * @param probes              the coverage probes the run reached, by name, with how many times (none reached: empty)
 */
public record RunReport(String scenario, RunMode mode, long seed, long events, long elapsedNanos, String eventDigest,
                        int invariantViolations, String violation, Metrics metrics, List<Phase> phases,
                        SortedMap<String, Long> probes) {

    /** One phase's duration. */
    public record Phase(String name, long startNanos, long endNanos, long durationNanos) {}

    /**
     * The metrics block. {@code ttftNanos}, {@code engine} and {@code requests} are per phase, in phase order;
     * {@code serverBusyNanos} is the server thread's busy time (virtual: charged host time; real: wall time inside
     * server inputs) and {@code serverBusyFraction} that over the run's elapsed time.
     */
    public record Metrics(long storedBytes, long loadedBytes, double l1HitRatio, long l2Reads, long l2Writes,
                          long writeOps, double meanWriteBytes, long coldPhaseNanos, long warmPhaseNanos,
                          Percentiles storeAckNanos, Percentiles loadNanos, Map<String, Percentiles> ttftNanos,
                          Map<String, EnginePhase> engine, Map<String, RequestPhase> requests,
                          TokenSources tokenSources, long loadFailures,
                          long ringEvictions, long l1Evictions,
                          long memoryWaits, long serverBusyNanos, double serverBusyFraction, long wrongBytes,
                          long injectedIoErrors, long writeErrors, L2Traffic.Figures l2Traffic) {
        public Metrics {
            ttftNanos = Collections.unmodifiableMap(new LinkedHashMap<>(ttftNanos));
            engine = Collections.unmodifiableMap(new LinkedHashMap<>(engine));
            requests = Collections.unmodifiableMap(new LinkedHashMap<>(requests));
        }
    }

    public RunReport {
        phases = List.copyOf(phases);
        probes = Collections.unmodifiableSortedMap(new TreeMap<>(probes));
    }

    public boolean ok() {
        return invariantViolations == 0;
    }
}
