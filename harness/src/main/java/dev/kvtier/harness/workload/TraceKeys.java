package dev.kvtier.harness.workload;

import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The core's prefix keys of a trace's requests (docs/design/TRAFFIC.md section 3). A trace block of {@code traceTokens}
 * is {@code traceTokens / blockTokens} of the core's slots; the key of slot j of a trace block is a function of the
 * block's id and j only (the id is already a prefix hash, so the key names the prefix too): {@code hi} is a
 * bijection of the id, {@code lo} one of j, both salted by the workload's seeded key stream. Distinct (id, j) pairs
 * therefore never share a key. A request's trailing partial slot gets no key, as in a synthetic prompt.
 */
final class TraceKeys {
    private final Trace trace;
    private final int blockTokens;
    private final int slotsPerBlock;
    private final long salt;

    TraceKeys(final Trace trace, final int blockTokens, final long salt) {
        if (trace.blockTokens() % blockTokens != 0) {
            throw new IllegalArgumentException("a trace block of " + trace.blockTokens() + " tokens is not a whole "
                + "number of the model's blocks of " + blockTokens);
        }
        this.trace = trace;
        this.blockTokens = blockTokens;
        this.slotsPerBlock = trace.blockTokens() / blockTokens;
        this.salt = salt;
    }

    /** Request {@code i}'s keys: one a whole slot of its input, in prefix order. */
    List<PrefixKey> keys(final int i) {
        final int slots = trace.inputTokens(i) / blockTokens;
        final List<PrefixKey> keys = new ArrayList<>(slots);
        for (int s = 0; s < slots; s++) {
            keys.add(key(trace.blockId(i, s / slotsPerBlock), s % slotsPerBlock, salt));
        }
        return keys;
    }

    /** The key of slot {@code j} of the trace block {@code id}. */
    static PrefixKey key(final long id, final int j, final long salt) {
        return new PrefixKey(Prompts.mix(id ^ salt), Prompts.mix(j ^ Long.rotateLeft(salt, 32)));
    }
}
