package dev.kvtier.cli;

/** Tiny scenarios for exploration tests: each seed runs in milliseconds. */
final class ExploreScenarios {
    /** A tiny workload whose swarm draws, per seed, a liveness bound that half the seeds cannot meet. */
    static final String FLAKY = """
        [scenario]
        name = "flaky"
        [model]
        name = "tiny"
        kvHeads = 1
        headDim = 64
        layers = 16
        [workload]
        prompts = 4
        inputTokens = 128
        concurrency = 2
        [engine]
        prefillNsPerToken = 10000000
        [[phase]]
        name = "cold"
        requests = 4
        [core]
        l1Fraction = 0.5
        l2Fraction = 1.05
        stagingBatchBytes = 262144
        [swarm]
        "sim.livenessBoundSeconds" = [3600, 1]
        "core.coalesceStoreSpans" = [true, false]
        """;

    /** The same workload whose swarm draws only knobs that pass: every seed holds every invariant. */
    static final String STEADY = FLAKY.replace("name = \"flaky\"", "name = \"steady\"")
        .replace("\"sim.livenessBoundSeconds\" = [3600, 1]\n", "");

    private ExploreScenarios() {}
}
