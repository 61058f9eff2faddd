package dev.kvtier.harness.workload;

import java.util.List;

/**
 * The workload: a set of prompts and the phases that request them, from a closed loop of {@code concurrency} clients
 * (each sends its next request when its last one got its first token), served by one inference engine
 * ({@link EngineSpec}, docs/design/ENGINE-MODEL.md). Phases run one after another, each drained (all saves committed,
 * no L2 write pending) before the next starts.
 *
 * @param prompts            distinct prompts
 * @param inputTokens        tokens per prompt
 * @param blockTokens        tokens per block (the model geometry's)
 * @param concurrency        clients (requests in the system at once)
 * @param sharedPrefixTokens leading tokens shared by every prompt of a group (0: none)
 * @param prefixGroups       prompt p belongs to group p mod prefixGroups
 * @param modelId            the model id used for lookups and allocations
 * @param phases             in order
 * @param engine             the inference engine
 */
public record WorkloadSpec(int prompts, int inputTokens, int blockTokens, int concurrency, int sharedPrefixTokens,
                           int prefixGroups, int modelId, List<PhaseSpec> phases, EngineSpec engine) {
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
        if (sharedPrefixTokens < 0 || sharedPrefixTokens > inputTokens) {
            throw new IllegalArgumentException("sharedPrefixTokens must be in [0, inputTokens], got "
                + sharedPrefixTokens);
        }
        phases = List.copyOf(phases);
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("a workload needs at least one phase");
        }
        java.util.Objects.requireNonNull(engine, "engine");
        if (engine.kvBlocks() > 0 && engine.kvBlocks() < inputTokens / blockTokens) {
            throw new IllegalArgumentException("engine.kvBlocks (" + engine.kvBlocks() + ") must hold one prompt's "
                + inputTokens / blockTokens + " blocks");
        }
    }

    /** Full blocks per prompt. */
    public int blocksPerPrompt() {
        return inputTokens / blockTokens;
    }

    /** The engine's KV blocks: as set, or enough for every client's request at once. */
    public long engineKvBlocks() {
        return engine.kvBlocks() > 0 ? engine.kvBlocks() : (long) concurrency * blocksPerPrompt();
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
