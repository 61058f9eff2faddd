package dev.kvtier.harness.workload;

/**
 * The inference engine's knobs (docs/design/ENGINE-MODEL.md): one step loop on one GPU that calls the store from inside
 * its steps.
 *
 * @param maxBatchedTokens  tokens one step may prefill (vLLM's {@code max_num_batched_tokens}); a longer prompt is
 *                          prefilled in chunks over several steps
 * @param prefillNsPerToken GPU time per prefilled token
 * @param stepFixedNs       GPU time of a step besides its tokens (scheduling, sampling the first tokens)
 * @param kvBlocks          the engine's KV blocks; a request takes its prompt's blocks from its first schedule until
 *                          its first token; 0 = enough for every client's request at once
 * @param loadsInFlight     asynchronous loads the connector runs at once; more wait in its queue
 * @param rpcNs             round trip of one call to the store server besides its queueing and work (half each way)
 * @param connector         how the connector calls the store ({@link ConnectorSpec#DEFAULT}: the reference's)
 * @param maxRunning        requests the engine holds at once, from their first schedule to their end (vLLM's
 *                          {@code max_num_seqs}); more wait in arrival order; 0 = no cap (a closed loop's clients
 *                          bound it)
 */
public record EngineSpec(int maxBatchedTokens, long prefillNsPerToken, long stepFixedNs, int kvBlocks,
                         int loadsInFlight, long rpcNs, ConnectorSpec connector, int maxRunning) {
    /**
     * The defaults: vLLM's 8192-token budget; prefill at 36 us a token, the one figure fitted to the reference (its
     * contiguous cold TTFT of 2.8 s with 8192-token prompts at concurrency 8, given this model's other costs); 5 ms of
     * fixed GPU time a step; KV blocks for every client; the reference connector's 8 loads in flight; 100 us RPCs.
     */
    public static final EngineSpec DEFAULT = new EngineSpec(8192, 36_000, 5_000_000, 0, 8, 100_000);

    public EngineSpec {
        if (maxBatchedTokens < 1) {
            throw new IllegalArgumentException("maxBatchedTokens must be positive, got " + maxBatchedTokens);
        }
        if (prefillNsPerToken < 0 || stepFixedNs < 0 || rpcNs < 0) {
            throw new IllegalArgumentException("engine times must not be negative: prefillNsPerToken "
                + prefillNsPerToken + ", stepFixedNs " + stepFixedNs + ", rpcNs " + rpcNs);
        }
        if (kvBlocks < 0) {
            throw new IllegalArgumentException("kvBlocks must be >= 0 (0 = enough for every client), got " + kvBlocks);
        }
        if (loadsInFlight < 1) {
            throw new IllegalArgumentException("loadsInFlight must be positive, got " + loadsInFlight);
        }
        java.util.Objects.requireNonNull(connector, "connector");
        if (maxRunning < 0) {
            throw new IllegalArgumentException("maxRunning must be >= 0 (0 = no cap), got " + maxRunning);
        }
    }

    /** An engine with no cap on the requests it holds. */
    public EngineSpec(final int maxBatchedTokens, final long prefillNsPerToken, final long stepFixedNs,
                      final int kvBlocks, final int loadsInFlight, final long rpcNs, final ConnectorSpec connector) {
        this(maxBatchedTokens, prefillNsPerToken, stepFixedNs, kvBlocks, loadsInFlight, rpcNs, connector, 0);
    }

    /** An engine with the reference's connector. */
    public EngineSpec(final int maxBatchedTokens, final long prefillNsPerToken, final long stepFixedNs,
                      final int kvBlocks, final int loadsInFlight, final long rpcNs) {
        this(maxBatchedTokens, prefillNsPerToken, stepFixedNs, kvBlocks, loadsInFlight, rpcNs, ConnectorSpec.DEFAULT,
            0);
    }

    /** One way of a call to the store server. */
    public long rpcOneWayNs() {
        return rpcNs / 2;
    }

    /** GPU time of a step that prefills {@code tokens}. */
    public long forwardNs(final long tokens) {
        return Math.addExact(stepFixedNs, Math.multiplyExact(prefillNsPerToken, tokens));
    }
}
