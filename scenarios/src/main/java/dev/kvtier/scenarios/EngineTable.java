package dev.kvtier.scenarios;

import dev.kvtier.harness.workload.ConnectorSpec;
import dev.kvtier.harness.workload.EngineSpec;
import java.util.Map;

/**
 * {@code [engine]}: the inference engine's step loop (docs/design/ENGINE-MODEL.md); every default comes from
 * {@link EngineSpec#DEFAULT}, except {@code maxRunning}'s for a trace (vLLM's {@code max_num_seqs}, 256). Kept apart
 * from {@link ScenarioLoader} so that the loader stays within its length.
 */
final class EngineTable {
    /** A trace workload's default cap on the requests the engine holds: vLLM's default {@code max_num_seqs}. */
    static final int TRACE_MAX_RUNNING = 256;

    private EngineTable() {}

    /**
     * Reads the table; {@code blocks} are the longest request's blocks, which {@code kvBlocks} must hold. Knobs added
     * after the first scenarios ({@code maxRunning}, the decode costs) are recorded only when set or for a trace, so a
     * scenario that sets none keeps its config digest (a closed loop never decodes: its requests give one token).
     */
    static EngineSpec read(final Section s, final int blocks, final boolean trace,
                           final Map<String, String> knobs) throws ScenarioException {
        final EngineSpec d = EngineSpec.DEFAULT;
        final int budget = s.intValue("maxBatchedTokens", d.maxBatchedTokens(), 1, 1 << 24);
        final long prefill = s.longValue("prefillNsPerToken", d.prefillNsPerToken(), 0, 1_000_000_000);
        final long fixed = s.longValue("stepFixedNs", d.stepFixedNs(), 0, 3_600_000_000_000L);
        final int kvBlocks = s.intValue("kvBlocks", d.kvBlocks(), 0, Integer.MAX_VALUE);
        final int loads = s.intValue("loadsInFlight", d.loadsInFlight(), 1, 4096);
        final long rpc = s.longValue("rpcNs", d.rpcNs(), 0, 3_600_000_000_000L);
        final boolean capped = s.has("maxRunning") || trace;
        final int maxRunning = s.intValue("maxRunning", trace ? TRACE_MAX_RUNNING : 0, trace ? 1 : 0, 1 << 20);
        final boolean decodeSet = s.has("decodeNsPerSequence") || s.has("decodeNsPerContextToken") || trace;
        final long perSequence = s.longValue("decodeNsPerSequence", EngineSpec.DECODE_NS_PER_SEQUENCE, 0,
            1_000_000_000);
        final long perContext = s.longValue("decodeNsPerContextToken", EngineSpec.DECODE_NS_PER_CONTEXT_TOKEN, 0,
            1_000_000);
        final ConnectorSpec connector = ExtraTables.connector(s, knobs);
        if (kvBlocks > 0 && kvBlocks < blocks) {
            throw s.fail("kvBlocks", "must hold " + (trace ? "the trace's longest request's " : "one prompt's ")
                + blocks + " blocks (or be 0), got " + kvBlocks);
        }
        knobs.put("engine.maxBatchedTokens", String.valueOf(budget));
        knobs.put("engine.prefillNsPerToken", String.valueOf(prefill));
        knobs.put("engine.stepFixedNs", String.valueOf(fixed));
        knobs.put("engine.kvBlocks", String.valueOf(kvBlocks));
        knobs.put("engine.loadsInFlight", String.valueOf(loads));
        knobs.put("engine.rpcNs", String.valueOf(rpc));
        if (capped) {
            knobs.put("engine.maxRunning", String.valueOf(maxRunning));
        }
        if (decodeSet) {
            knobs.put("engine.decodeNsPerSequence", String.valueOf(perSequence));
            knobs.put("engine.decodeNsPerContextToken", String.valueOf(perContext));
        }
        return new EngineSpec(budget, prefill, fixed, kvBlocks, loads, rpc, connector, maxRunning, perSequence,
            perContext);
    }
}
