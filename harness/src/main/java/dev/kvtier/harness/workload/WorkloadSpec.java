package dev.kvtier.harness.workload;

import java.util.List;

/**
 * The workload: a set of prompts and the phases that request them, served by a closed loop of {@code concurrency}
 * engine lanes. Each request looks up its prompt's keys, loads the cached prefix, allocates the rest, runs prefill
 * on the (one, first-come first-served) GPU for the uncached tokens, then saves what it computed; it finishes
 * (first token) when its KV is staged. Phases run one after another, each drained (all saves committed, no L2 write
 * pending) before the next starts.
 *
 * @param prompts            distinct prompts
 * @param inputTokens        tokens per prompt
 * @param blockTokens        tokens per block (the model geometry's)
 * @param concurrency        requests in flight (engine lanes)
 * @param prefillNsPerToken  GPU prefill time per uncached token
 * @param firstTokenNs       GPU time for the first output token
 * @param sharedPrefixTokens leading tokens shared by every prompt of a group (0: none)
 * @param prefixGroups       prompt p belongs to group p mod prefixGroups
 * @param modelId            the model id used for lookups and allocations
 * @param phases             in order
 */
public record WorkloadSpec(int prompts, int inputTokens, int blockTokens, int concurrency, long prefillNsPerToken,
                           long firstTokenNs, int sharedPrefixTokens, int prefixGroups, int modelId,
                           List<PhaseSpec> phases) {
    public WorkloadSpec {
        positive("prompts", prompts);
        positive("inputTokens", inputTokens);
        positive("blockTokens", blockTokens);
        positive("concurrency", concurrency);
        positive("prefixGroups", prefixGroups);
        if (inputTokens < blockTokens) {
            throw new IllegalArgumentException("inputTokens (" + inputTokens + ") must hold one block of "
                + blockTokens);
        }
        if (prefillNsPerToken < 0 || firstTokenNs < 0) {
            throw new IllegalArgumentException("compute times must not be negative");
        }
        if (sharedPrefixTokens < 0 || sharedPrefixTokens > inputTokens) {
            throw new IllegalArgumentException("sharedPrefixTokens must be in [0, inputTokens], got "
                + sharedPrefixTokens);
        }
        phases = List.copyOf(phases);
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("a workload needs at least one phase");
        }
    }

    /** Full blocks per prompt. */
    public int blocksPerPrompt() {
        return inputTokens / blockTokens;
    }

    /** Total requests over all phases. */
    public int totalRequests() {
        int n = 0;
        for (final PhaseSpec p : phases) {
            n += p.requests();
        }
        return n;
    }

    private static void positive(final String what, final int v) {
        if (v <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + v);
        }
    }
}
