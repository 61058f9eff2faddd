package dev.kvtier.lab.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.harness.workload.Trace;
import org.junit.jupiter.api.Test;

class IdealHitsTest {

    /**
     * Blocks of 4 tokens, slots of 2. Request 1 (8 tokens, blocks A B) hits nothing; request 2 (8 tokens, A B) hits
     * all 8; request 3 (10 tokens: A B C, C partial with 2 tokens = 1 slot) hits A B (8); request 4 (3 tokens: A
     * partial, 1 whole slot) hits 2; request 5 (8 tokens, D A) hits nothing: its leading block is new.
     */
    @Test
    void shouldCountTheLeadingSlotsEarlierRequestsHeld() {
        final Trace t = new Trace.Builder("t", 4)
            .add(0, 8, 1, new long[] {1, 2})
            .add(1, 8, 1, new long[] {1, 2})
            .add(2, 10, 1, new long[] {1, 2, 3})
            .add(3, 3, 1, new long[] {1})
            .add(4, 8, 1, new long[] {4, 1})
            .build();
        assertEquals((0 + 8 + 8 + 2 + 0) / 37.0, IdealHits.ratio(t, 2), 1e-12);
    }

    /** A block seen with fewer whole slots than a later request has hits only those, and stops the prefix. */
    @Test
    void shouldStopAtABlockHeldShorterThanTheRequestHasIt() {
        final Trace t = new Trace.Builder("t", 4)
            .add(0, 2, 1, new long[] {1})
            .add(1, 8, 1, new long[] {1, 2})
            .add(2, 8, 1, new long[] {1, 2})
            .build();
        assertEquals((0 + 2 + 8) / 18.0, IdealHits.ratio(t, 2), 1e-12);
    }
}
