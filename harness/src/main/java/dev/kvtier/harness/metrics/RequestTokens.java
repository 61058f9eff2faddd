package dev.kvtier.harness.metrics;

import dev.kvtier.core.event.CoreEvent.LoadFailure;
import dev.kvtier.core.value.PrefixKey;

/**
 * Where one request's input tokens came from (issue 33 item 4, per request), and what its lookup and load found: the
 * row a user reads to see why a request missed ({@code kvtier run --requests FILE}).
 *
 * @param requestId       the request
 * @param phase           its phase
 * @param arrivalNs       when it arrived (the run's clock)
 * @param ttftNs          its time to first token, from arrival
 * @param input           its input tokens
 * @param fromL1          tokens loaded from L1
 * @param fromL2          tokens loaded from L2
 * @param prefilledBy     tokens prefilled, by reason (they add up to {@code input - fromL1 - fromL2})
 * @param blocks          its whole blocks (keys); a trailing partial block is not one
 * @param lookupBlocks    blocks its lookup found committed (its hit)
 * @param loadFailure     why its load failed, or null (loaded, or nothing to load)
 * @param firstMissBlock  the first block its lookup did not find (where the hit ended), or -1 (a full hit, or none)
 * @param firstMissReason that block's reason, or null
 * @param firstMissKey    that block's key (its chunk's, with chunked keys), or null
 */
public record RequestTokens(long requestId, String phase, long arrivalNs, long ttftNs, long input, long fromL1,
                            long fromL2, PrefilledBy prefilledBy, int blocks, int lookupBlocks,
                            LoadFailure loadFailure, int firstMissBlock, MissReason firstMissReason,
                            PrefixKey firstMissKey) {
    public RequestTokens {
        if (fromL1 < 0 || fromL2 < 0 || fromL1 + fromL2 + prefilledBy.total() != input) {
            throw new IllegalArgumentException("request " + requestId + ": input " + input + " is not from L1 "
                + fromL1 + " + from L2 " + fromL2 + " + prefilled " + prefilledBy.total());
        }
        if ((firstMissBlock < 0) != (firstMissReason == null)) {
            throw new IllegalArgumentException("request " + requestId + ": first miss at " + firstMissBlock
                + " with reason " + firstMissReason);
        }
    }

    /** Tokens the engine computed. */
    public long prefilled() {
        return prefilledBy.total();
    }
}
