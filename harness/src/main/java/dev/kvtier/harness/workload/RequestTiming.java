package dev.kvtier.harness.workload;

/**
 * When one request passed each point of its life, on the engine's clock (docs/design/ENGINE-MODEL.md): its arrival (a
 * closed loop's client sent it, or its trace time came), its first schedule (it took its KV blocks: its queueing ends),
 * its first token, and its end.
 *
 * @param requestId    the request
 * @param phase        the phase it belongs to
 * @param arrivalNs    when it arrived
 * @param scheduledNs  when it was first scheduled
 * @param firstTokenNs when it gave its first token
 * @param endNs        when it gave its last token
 * @param outputTokens tokens it gave
 * @param tokens       where its input's KV came from
 */
public record RequestTiming(long requestId, String phase, long arrivalNs, long scheduledNs, long firstTokenNs,
                            long endNs, int outputTokens, Tokens tokens) {
    /**
     * Where a request's input KV came from (issue 33 item 4, per request): loaded from the store (the cached prefix its
     * lookup found, when its load succeeded; 0 after a failed load) or prefilled by the engine (the rest, at least its
     * last token: a full hit computes one token, so loaded + prefilled may exceed the input by one).
     *
     * @param input     its input tokens
     * @param loaded    tokens whose KV its load brought from the store
     * @param prefilled tokens the engine computed
     */
    public record Tokens(long input, long loaded, long prefilled) {
        public Tokens {
            if (input < 0 || loaded < 0 || prefilled < 1 || loaded + prefilled > input + 1) {
                throw new IllegalArgumentException("tokens: input " + input + ", loaded " + loaded + ", prefilled "
                    + prefilled);
            }
        }
    }

    public RequestTiming {
        if (!(arrivalNs <= scheduledNs && scheduledNs <= firstTokenNs && firstTokenNs <= endNs)) {
            throw new IllegalArgumentException("request " + requestId + ": times out of order: arrival " + arrivalNs
                + ", scheduled " + scheduledNs + ", first token " + firstTokenNs + ", end " + endNs);
        }
        if (outputTokens < 1) {
            throw new IllegalArgumentException("request " + requestId + " gave " + outputTokens + " tokens");
        }
    }

    /** Time in the waiting queue: arrival to first schedule. */
    public long queueNs() {
        return scheduledNs - arrivalNs;
    }

    /** Time to first token, from arrival (queueing included). */
    public long ttftNs() {
        return firstTokenNs - arrivalNs;
    }

    /** Arrival to last token. */
    public long endToEndNs() {
        return endNs - arrivalNs;
    }

    /** Mean time per output token after the first, or -1 for a request of one token. */
    public long tpotNs() {
        return outputTokens > 1 ? (endNs - firstTokenNs) / (outputTokens - 1) : -1;
    }
}
