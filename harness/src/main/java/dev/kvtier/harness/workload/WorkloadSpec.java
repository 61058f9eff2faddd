package dev.kvtier.harness.workload;

import java.util.List;

/**
 * The workload: a set of prompts and the phases that request them, from a closed loop of {@code concurrency} clients
 * (each sends its next request when its last one got its first token), served by one inference engine
 * ({@link EngineSpec}, docs/design/ENGINE-MODEL.md). Phases run one after another, each drained (all saves committed,
 * no L2 write pending) before the next starts.
 *
 * <p>Or a trace ({@link #ofTrace}): requests arrive on the trace's own clock (an open loop) in one phase named
 * {@value #TRACE_PHASE}; then {@code prompts} is the trace's requests, {@code inputTokens} its longest input,
 * {@code concurrency} the requests the engine holds at once (its engine memory has room for that many of the longest),
 * and the prompt-set keys are unused.
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
 * @param trace              the trace replayed in an open loop, or null for a closed loop over the prompt set
 */
public record WorkloadSpec(int prompts, int inputTokens, int blockTokens, int concurrency, int sharedPrefixTokens,
                           int prefixGroups, int modelId, List<PhaseSpec> phases, EngineSpec engine, Trace trace) {
    /** The one phase of a trace workload. */
    public static final String TRACE_PHASE = "trace";

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
        if (trace != null && (prompts != trace.size() || inputTokens != Math.max(trace.maxInputTokens(), blockTokens)
            || phases.size() != 1)) {
            throw new IllegalArgumentException("a trace workload is built by WorkloadSpec.ofTrace");
        }
    }

    /** A closed loop over the prompt set. */
    public WorkloadSpec(final int prompts, final int inputTokens, final int blockTokens, final int concurrency,
                        final int sharedPrefixTokens, final int prefixGroups, final int modelId,
                        final List<PhaseSpec> phases, final EngineSpec engine) {
        this(prompts, inputTokens, blockTokens, concurrency, sharedPrefixTokens, prefixGroups, modelId, phases, engine,
            null);
    }

    /**
     * {@code trace} replayed in an open loop by {@code engine}, which must cap the requests it holds
     * ({@link EngineSpec#maxRunning}): its engine memory holds that many of the trace's longest requests.
     */
    public static WorkloadSpec ofTrace(final Trace trace, final int blockTokens, final int modelId,
                                       final EngineSpec engine) {
        if (engine.maxRunning() < 1) {
            throw new IllegalArgumentException("a trace workload needs engine.maxRunning, the requests the engine holds"
                + " at once");
        }
        return new WorkloadSpec(trace.size(), Math.max(trace.maxInputTokens(), blockTokens), blockTokens,
            Math.min(engine.maxRunning(), trace.size()), 0, 1, modelId,
            List.of(new PhaseSpec(TRACE_PHASE, trace.size(), PhaseSpec.Order.SEQUENTIAL, 0)), engine, trace);
    }

    /** True for a trace replayed in an open loop. */
    public boolean isTrace() {
        return trace != null;
    }

    /** Full blocks per prompt. */
    public int blocksPerPrompt() {
        return inputTokens / blockTokens;
    }

    /** The engine's KV blocks: as set, or enough for every client's request at once (a trace's: no limit). */
    public long engineKvBlocks() {
        if (engine.kvBlocks() > 0) {
            return engine.kvBlocks();
        }
        return isTrace() ? Long.MAX_VALUE : (long) concurrency * blocksPerPrompt();
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
