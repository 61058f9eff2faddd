package dev.kvtier.harness.workload;

import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import java.util.List;

/**
 * One request inside the engine, from its arrival to its last token. Its life
 * (docs/design/ENGINE-MODEL.md): it waits in arrival order; its first schedule takes its KV blocks (and, for a trace's
 * request, a lane of engine memory) and calls the store (lookup, then allocation of the blocks it will compute); a hit
 * is loaded asynchronously while the request sits out; then it is prefilled, in chunks if its tokens exceed a step's
 * budget; the step whose forward pass ends its prefill stages its KV and gives its first token; it then decodes, one
 * token a step beside other requests' prefill chunks, until its last (docs/design/ENGINE-MODEL.md).
 */
final class EngineRequest {
    /** Where a request is in its life. */
    enum State {
        /** Waiting for its first schedule. */
        NEW,
        /** Its cached prefix is being loaded; the scheduler passes over it. */
        LOADING,
        /** Ready to be prefilled (after its load, or with nothing to load). */
        READY,
        /** Being prefilled, over one or more steps. */
        RUNNING,
        /** Past its first token: one more token a step until its last. */
        DECODING,
        /** Its last token was given. */
        DONE
    }

    final long id;
    /** The closed loop's client that sent it, or -1 (a trace's request). */
    final int client;
    final int phase;
    final List<PrefixKey> keys;
    /** Full blocks of its input: its keys. */
    final int blocks;
    final int inputTokens;
    /** Tokens it gives: the first at the end of its prefill, then one a step. */
    final int outputTokens;
    /** Engine KV blocks it holds from its first schedule to its end: its prompt's and its generated tokens'. */
    final long kvBlocks;
    final long arrivalNs;
    /** Where its blocks sit in engine KV memory: its client's, or a free one from its first schedule. */
    int lane;
    State state = State.NEW;
    /** When it was first scheduled (took its KV blocks): its queueing ends there. */
    long scheduledNs = -1;
    long firstTokenNs = -1;
    /** Tokens given so far. */
    int generated;
    /** Blocks the lookup found cached (the prefix a load brings in; 0 after a failed load). */
    int cached;
    /** The cached prefix the lookup found (what a load brings in). */
    List<AllocationRef> prefix = List.of();
    /** The allocations this request claimed, by the block each is for (in block order). */
    final BlockClaims claims;
    /** Blocks before {@link #cached} whose allocation is still to be asked for (after a failed load). */
    int reallocateUpTo;
    long tokensToCompute;
    long tokensDone;
    long loadSentNs;

    /** A closed-loop client's request for a prompt of {@code inputTokens}: one output token, its client's lane. */
    EngineRequest(final long id, final int client, final int phase, final List<PrefixKey> keys, final int inputTokens,
                  final long arrivalNs) {
        this(id, client, phase, keys, inputTokens, 1, keys.size(), arrivalNs);
    }

    private EngineRequest(final long id, final int client, final int phase, final List<PrefixKey> keys,
                          final int inputTokens, final int outputTokens, final long kvBlocks, final long arrivalNs) {
        if (outputTokens < 1) {
            throw new IllegalArgumentException("request " + id + " would give " + outputTokens + " tokens");
        }
        this.id = id;
        this.client = client;
        this.lane = client;
        this.phase = phase;
        this.keys = List.copyOf(keys);
        this.blocks = this.keys.size();
        this.inputTokens = inputTokens;
        this.outputTokens = outputTokens;
        this.kvBlocks = Math.max(this.blocks, kvBlocks);
        this.claims = new BlockClaims(this.keys.size());
        this.arrivalNs = arrivalNs;
    }

    /**
     * A trace's request: no client, a lane from its first schedule, and the KV blocks of its prompt and of the tokens
     * it generates (every token but the last is fed back: {@code (input + output - 1) / blockTokens} whole blocks).
     */
    static EngineRequest traced(final long id, final int phase, final List<PrefixKey> keys, final int inputTokens,
                                final int outputTokens, final int blockTokens, final long arrivalNs) {
        return new EngineRequest(id, -1, phase, keys, inputTokens, outputTokens,
            ((long) inputTokens + outputTokens - 1) / blockTokens, arrivalNs);
    }

    long tokensLeft() {
        return tokensToCompute - tokensDone;
    }

    /** Tokens to prefill when the first {@code have} blocks are in engine memory: at least one (the last token). */
    static long tokensToCompute(final int blocks, final int have, final int inputTokens, final int blockTokens) {
        final long uncached = (long) (blocks - have) * blockTokens + inputTokens % blockTokens;
        return Math.max(1, uncached);
    }
}
