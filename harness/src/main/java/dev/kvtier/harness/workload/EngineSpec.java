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
 * @param decodeNsPerSequence     GPU time a step adds for each request that decodes a token in it
 * @param decodeNsPerContextToken GPU time a step adds for each token of context a decoding request attends over (its
 *                                input and the tokens it gave)
 */
public record EngineSpec(int maxBatchedTokens, long prefillNsPerToken, long stepFixedNs, int kvBlocks,
                         int loadsInFlight, long rpcNs, ConnectorSpec connector, int maxRunning,
                         long decodeNsPerSequence, long decodeNsPerContextToken) {
    /**
     * A decoded token's default cost: it passes the same layers as a prefilled one, so the prefill figure, 36 us (the
     * per-token compute of an 8B model: about 16 GFLOP at an H100's effective rate).
     */
    public static final long DECODE_NS_PER_SEQUENCE = 36_000;
    /** A context token's default cost: Qwen3-8B's 144 KiB of KV a token read at an H100's 3 TB/s, about 48 ns. */
    public static final long DECODE_NS_PER_CONTEXT_TOKEN = 48;

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
        if (decodeNsPerSequence < 0 || decodeNsPerContextToken < 0) {
            throw new IllegalArgumentException("decode costs must not be negative: " + decodeNsPerSequence + ", "
                + decodeNsPerContextToken);
        }
    }

    /** An engine with the default decode costs. */
    public EngineSpec(final int maxBatchedTokens, final long prefillNsPerToken, final long stepFixedNs,
                      final int kvBlocks, final int loadsInFlight, final long rpcNs, final ConnectorSpec connector,
                      final int maxRunning) {
        this(maxBatchedTokens, prefillNsPerToken, stepFixedNs, kvBlocks, loadsInFlight, rpcNs, connector, maxRunning,
            DECODE_NS_PER_SEQUENCE, DECODE_NS_PER_CONTEXT_TOKEN);
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

    /** GPU time of a step that prefills {@code tokens} and decodes nothing. */
    public long forwardNs(final long tokens) {
        return stepNs(tokens, 0, 0);
    }

    /**
     * GPU time of a step that prefills {@code prefillTokens} and decodes one token for each of {@code sequences}
     * requests, which attend over {@code contextTokens} in all: fixed + prefill tokens x per-token + sequences x
     * per-sequence + context tokens x per-context-token.
     */
    public long stepNs(final long prefillTokens, final long sequences, final long contextTokens) {
        return Math.addExact(Math.addExact(stepFixedNs, Math.multiplyExact(prefillNsPerToken, prefillTokens)),
            Math.addExact(Math.multiplyExact(decodeNsPerSequence, sequences),
                Math.multiplyExact(decodeNsPerContextToken, contextTokens)));
    }
}
