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
 */
public record RequestTiming(long requestId, String phase, long arrivalNs, long scheduledNs, long firstTokenNs,
                            long endNs, int outputTokens) {
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
