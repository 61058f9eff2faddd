package dev.kvtier.harness.run;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.harness.check.ProvenanceChecker;
import dev.kvtier.harness.check.InvariantChecker;
import dev.kvtier.harness.check.InvariantViolation;
import dev.kvtier.harness.metrics.RunMetrics;
import dev.kvtier.harness.workload.RequestTiming;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunRecorderTest {
    private static final long MS = 1_000_000;

    /** A recorder whose run looked request 7 up (32 blocks of 16 tokens, none cached), as the engine does. */
    private static RunRecorder recorder(final long boundNs, final long fromNs) {
        final CoreConfig config = CoreConfig.builder(65_536).l1Bytes(1 << 24).l2Bytes(1 << 24).build();
        final ProvenanceChecker provenance = new ProvenanceChecker(16, 1);
        final InvariantChecker checker = new InvariantChecker(config, () -> 0, List.of(provenance));
        final RunRecorder r = new RunRecorder(checker, new RunMetrics(() -> 0), () -> 0, provenance);
        final List<PrefixKey> keys = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            keys.add(new PrefixKey(7, i));
        }
        checker.emit(new CoreEvent.Lookup(1, keys, 0));
        checker.emit(new CoreEvent.RequestArrived(7, "cold", 32, 0));
        r.ttftBound(boundNs, fromNs);
        return r;
    }

    /** Arrived at 0, scheduled (looked up) at 90 ms, first token at 110 ms: 110 ms of TTFT, 20 ms after the lookup. */
    private static RequestTiming queued(final long arrivalNs) {
        return new RequestTiming(7, "cold", arrivalNs, arrivalNs + 90 * MS, arrivalNs + 110 * MS, arrivalNs + 120 * MS,
            1, new RequestTiming.Tokens(512, 0, 512));
    }

    @Test
    void shouldBoundTheTtftFromArrivalQueueingIncluded() {
        final InvariantViolation v = assertThrows(InvariantViolation.class,
            () -> recorder(100 * MS, 0).requestDone(queued(0)));
        assertTrue(v.getMessage().contains("request 7 (phase cold) gave its first token 110000000 ns after it "
            + "arrived (queueing included), TTFT bound 100000000 ns"), v.getMessage());
        assertDoesNotThrow(() -> recorder(110 * MS, 0).requestDone(queued(0)), "a TTFT at the bound is within it");
    }

    @Test
    void shouldNotBoundWhenOffOrWhileFaultsWereInjected() {
        assertDoesNotThrow(() -> recorder(0, 0).requestDone(queued(0)));
        assertDoesNotThrow(() -> recorder(100 * MS, 5 * MS).requestDone(queued(0)),
            "arrived before the faults stopped");
        assertThrows(InvariantViolation.class, () -> recorder(100 * MS, 5 * MS).requestDone(queued(5 * MS)));
    }
}
