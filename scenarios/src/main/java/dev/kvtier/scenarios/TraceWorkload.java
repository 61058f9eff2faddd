package dev.kvtier.scenarios;

import dev.kvtier.harness.workload.Trace;
import dev.kvtier.harness.workload.WorkloadSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code [workload]} with a {@code trace} (docs/design/TRAFFIC.md): the trace file or bundled name, its block size, a
 * time scale and a window, read and checked by {@link TraceFiles}. The closed loop's keys ({@code prompts}, {@code
 * inputTokens}, {@code concurrency}, the shared prefixes) and {@code [[phase]]} tables do not apply and are refused.
 * Kept apart from {@link ScenarioLoader} so that the loader stays within its length.
 */
final class TraceWorkload {
    /** The Mooncake traces' block: 512 tokens. */
    static final int BLOCK_TOKENS = 512;
    /** The closed loop's keys, refused beside a trace. */
    private static final List<String> CLOSED_LOOP_KEYS = List.of("prompts", "inputTokens", "concurrency",
        "sharedPrefixTokens", "prefixGroups");

    private TraceWorkload() {}

    /** The trace read, and the model id the workload's calls use. */
    record Parts(Trace trace, int modelId) {}

    /** Reads the table's trace keys and the trace; {@code base} resolves a relative path (null: the working dir). */
    static Parts read(final String source, final Section s, final int modelBlockTokens, final Path base,
                      final boolean phases, final Map<String, String> knobs) throws ScenarioException {
        final String file = s.requiredString("trace");
        final int blockTokens = s.intValue("traceBlockTokens", BLOCK_TOKENS, 1, 1 << 20);
        final double scale = s.fraction("traceTimeScale", 1.0);
        final long fromMs = s.longValue("traceFromMs", 0, 0, Long.MAX_VALUE / 1_000_000);
        final long toMs = s.longValue("traceToMs", Long.MAX_VALUE, 1, Long.MAX_VALUE);
        final int requests = s.intValue("traceRequests", Integer.MAX_VALUE, 1, Integer.MAX_VALUE);
        final int modelId = s.intValue("modelId", 1, 0, Integer.MAX_VALUE);
        for (final String closed : CLOSED_LOOP_KEYS) {
            if (s.has(closed)) {
                throw s.fail(closed, "is a closed-loop key: a trace workload's requests, their lengths and their "
                    + "arrivals come from its trace");
            }
        }
        s.rejectUnknown();
        if (phases) {
            throw new ScenarioException(source + ": key 'phase': a trace workload runs its trace as one phase named \""
                + WorkloadSpec.TRACE_PHASE + "\"; remove the [[phase]] tables");
        }
        if (blockTokens % modelBlockTokens != 0) {
            throw s.fail("traceBlockTokens", "must be a multiple of model.blockTokens (" + modelBlockTokens
                + "): a trace block is a whole number of the core's slots, got " + blockTokens);
        }
        if (toMs <= fromMs) {
            throw s.fail("traceToMs", "must be after workload.traceFromMs (" + fromMs + "), got " + toMs);
        }
        final TraceFiles.Read read = TraceFiles.read(source, "workload.trace", file, base,
            new TraceFiles.Window(blockTokens, scale, fromMs, toMs, requests));
        knobs.put("workload.trace", file);
        knobs.put("workload.traceSha256", read.sha256());
        knobs.put("workload.traceBlockTokens", String.valueOf(blockTokens));
        knobs.put("workload.traceTimeScale", String.valueOf(scale));
        knobs.put("workload.traceFromMs", String.valueOf(fromMs));
        knobs.put("workload.traceToMs", toMs == Long.MAX_VALUE ? "none" : String.valueOf(toMs));
        knobs.put("workload.traceRequests", requests == Integer.MAX_VALUE ? "all" : String.valueOf(requests));
        knobs.put("workload.traceWindowRequests", String.valueOf(read.trace().size()));
        knobs.put("workload.modelId", String.valueOf(modelId));
        return new Parts(read.trace(), modelId);
    }

    /** The trace's distinct KV: every slot it stores once (what an unbounded cache holds), for the tiers' fractions. */
    static long kvBytes(final String source, final Trace trace, final int blockTokens,
                        final long slotBytes) throws ScenarioException {
        try {
            return Math.multiplyExact(trace.distinctSlots(blockTokens), slotBytes);
        } catch (final ArithmeticException e) {
            throw new ScenarioException(source + ": the trace's distinct KV does not fit in 64 bits");
        }
    }
}
