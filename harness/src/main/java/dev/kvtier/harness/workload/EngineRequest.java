package dev.kvtier.harness.workload;

import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import java.util.List;

/**
 * One request inside the engine, from its arrival to its first token. Its life (docs/design/ENGINE-MODEL.md): it waits
 * in arrival order; its first schedule takes its KV blocks and calls the store (lookup, then allocation of the blocks
 * it will compute); a hit is loaded asynchronously while the request sits out; then it is prefilled, in chunks if its
 * tokens exceed a step's budget; the step whose forward pass ends its prefill stages its KV and gives its first token.
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
    final int client;
    final int phase;
    final List<PrefixKey> keys;
    final long arrivalNs;
    State state = State.NEW;
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

    EngineRequest(final long id, final int client, final int phase, final List<PrefixKey> keys,
                  final long arrivalNs) {
        this.id = id;
        this.client = client;
        this.phase = phase;
        this.keys = List.copyOf(keys);
        this.claims = new BlockClaims(this.keys.size());
        this.arrivalNs = arrivalNs;
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
