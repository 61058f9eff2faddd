package dev.kvtier.harness.workload;

import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import java.util.List;

/**
 * One request inside the engine, from its arrival to its first token (its end: it gives one token). Its life
 * (docs/design/ENGINE-MODEL.md): it waits in arrival order; its first schedule takes its KV blocks (and, for a trace's
 * request, a lane of engine memory) and calls the store (lookup, then allocation of the blocks it will compute); a hit
 * is loaded asynchronously while the request sits out; then it is prefilled, in chunks if its tokens exceed a step's
 * budget; the step whose forward pass ends its prefill stages its KV and gives its first token.
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
        /** Its first token was given. */
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
    final long arrivalNs;
    /** Where its blocks sit in engine KV memory: its client's, or a free one from its first schedule. */
    int lane;
    State state = State.NEW;
    /** When it was first scheduled (took its KV blocks): its queueing ends there. */
    long scheduledNs = -1;
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

    /** A closed-loop client's request for a prompt of {@code inputTokens}; its lane is its client's. */
    EngineRequest(final long id, final int client, final int phase, final List<PrefixKey> keys, final int inputTokens,
                  final long arrivalNs) {
        this.id = id;
        this.client = client;
        this.lane = client;
        this.phase = phase;
        this.keys = List.copyOf(keys);
        this.blocks = this.keys.size();
        this.inputTokens = inputTokens;
        this.claims = new BlockClaims(this.keys.size());
        this.arrivalNs = arrivalNs;
    }

    /** A trace's request: no client, and a lane from its first schedule. */
    static EngineRequest traced(final long id, final int phase, final List<PrefixKey> keys, final int inputTokens,
                                final long arrivalNs) {
        return new EngineRequest(id, -1, phase, keys, inputTokens, arrivalNs);
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
