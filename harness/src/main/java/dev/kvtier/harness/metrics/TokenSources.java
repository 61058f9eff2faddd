package dev.kvtier.harness.metrics;

/**
 * Where a run's input tokens came from (issue 33 item 4, per run): loaded from L1, loaded from L2, or prefilled by the
 * engine, and why each prefilled token was not loaded. Counted per request from the events of its lookup and its load
 * (a loaded block whose bytes the load found in L1 is from L1, one any of whose bytes it read from L2 is from L2), so
 * {@code fromL1 + fromL2 + prefilled == input} and the reasons add up to {@code prefilled}. A full hit's last token is
 * loaded and computed again (the engine computes at least one token); it counts as prefilled, always computed.
 *
 * @param input       input tokens of every request that ended
 * @param fromL1      tokens whose KV came from L1
 * @param fromL2      tokens whose KV came from L2
 * @param prefilled   tokens the engine computed (for the first time or again)
 * @param prefilledBy the prefilled tokens by reason
 */
public record TokenSources(long input, long fromL1, long fromL2, long prefilled, PrefilledBy prefilledBy) {
    /** None: no request ended. */
    public static final TokenSources NONE = new TokenSources(0, 0, 0, 0, PrefilledBy.NONE);

    public TokenSources {
        if (fromL1 < 0 || fromL2 < 0 || prefilled < 0 || fromL1 + fromL2 + prefilled != input) {
            throw new IllegalArgumentException("tokens do not add up: input " + input + ", from L1 " + fromL1
                + ", from L2 " + fromL2 + ", prefilled " + prefilled);
        }
        if (prefilledBy.total() != prefilled) {
            throw new IllegalArgumentException("the reasons " + prefilledBy + " add up to " + prefilledBy.total()
                + ", not to the " + prefilled + " tokens prefilled");
        }
    }
}
