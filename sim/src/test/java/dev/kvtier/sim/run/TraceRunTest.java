package dev.kvtier.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.Clock;
import dev.kvtier.harness.metrics.PrefilledBy;
import dev.kvtier.harness.metrics.RunMetrics;
import dev.kvtier.harness.metrics.TokenSources;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.harness.run.RunSpec;
import dev.kvtier.harness.workload.EngineSpec;
import dev.kvtier.harness.workload.Trace;
import dev.kvtier.harness.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A trace workload in a whole simulated run (docs/design/TRAFFIC.md, issue 33 items 1 and 2): requests enter the engine
 * at their trace time whether it is busy or not (an open loop), TTFT counts from that arrival with the queueing in it,
 * and the queueing is reported apart; trace blocks become the core's slots so that equal leading hash ids share a
 * cached prefix, a trailing partial slot is never stored, and requests without reuse information never share a key.
 */
class TraceRunTest {
    private static final long SLOT = 64 * 1024;
    private static final HostCostProfile FREE = new HostCostProfile("free", 0, 0, 0, 0, 0, 1L << 50, 1L << 50);
    /** 1 ms a step and 10 us a prefilled token: a 1024-token prefill is one step of 11.24 ms. */
    private static final EngineSpec ENGINE = new EngineSpec(8192, 10_000, 1_000_000, 0, 8, 100_000,
        dev.kvtier.harness.workload.ConnectorSpec.DEFAULT, 1);

    /** One recorded event with its time. */
    private record Timed(long timeNs, CoreEvent event) {}

    private record Run(RunReport report, List<Timed> events) {
        /** Each request's first lookup: its cached blocks, by request id in arrival order. */
        Map<Long, Integer> cached() {
            final Map<Long, Integer> out = new LinkedHashMap<>();
            for (final Timed t : events) {
                if (t.event() instanceof CoreEvent.RequestArrived a) {
                    out.put(a.requestId(), a.cachedBlocks());
                }
            }
            return out;
        }

        /** Each request's finish time, by request id. */
        Map<Long, Long> finishedAt() {
            final Map<Long, Long> out = new LinkedHashMap<>();
            for (final Timed t : events) {
                if (t.event() instanceof CoreEvent.RequestFinished f) {
                    out.put(f.requestId(), t.timeNs());
                }
            }
            return out;
        }

        /** Each request's first schedule (the reply to its lookup), by request id. */
        Map<Long, Long> scheduledAt() {
            final Map<Long, Long> out = new LinkedHashMap<>();
            for (final Timed t : events) {
                if (t.event() instanceof CoreEvent.RequestArrived a) {
                    out.put(a.requestId(), t.timeNs());
                }
            }
            return out;
        }
    }

    @Test
    void shouldLetARequestArriveAtItsTraceTimeWhileTheEngineIsIdle() {
        // Two unrelated requests 5 s apart: the engine finishes the first long before the second arrives, and the
        // second is not sent early (a closed loop would send it at the first one's first token).
        final Trace t = new Trace.Builder("two", 512).add(0, 1024, 1, new long[] {1, 2})
            .add(5_000_000_000L, 1024, 1, new long[] {7, 8}).build();
        final Run r = run(t);
        final Map<Long, Long> scheduled = r.scheduledAt();
        assertTrue(r.finishedAt().get(1L) < 1_000_000_000L, "the first request ended at " + r.finishedAt().get(1L));
        assertTrue(scheduled.get(2L) >= 5_000_000_000L, "the second was scheduled at " + scheduled.get(2L)
            + " ns, before its arrival at 5 s");
        assertTrue(r.report().elapsedNanos() >= 5_000_000_000L);
        final RunMetrics.RequestPhase q = r.report().metrics().requests().get(WorkloadSpec.TRACE_PHASE);
        assertEquals(2, q.endToEndNanos().count());
        assertTrue(q.queueNanos().max() < 1_000_000, "an idle engine queued a request " + q.queueNanos().max());
    }

    @Test
    void shouldCountQueueingInTtftWhenRequestsArriveWhileTheEngineIsBusy() {
        // Three requests arrive at once; the engine holds one at a time (maxRunning 1): the second waits for the first
        // to end, the third for both. TTFT counts from the common arrival, so it grows by a request's time each.
        final Trace t = new Trace.Builder("burst", 512).add(0, 1024, 1, new long[] {1, 2})
            .add(0, 1024, 1, new long[] {3, 4}).add(0, 1024, 1, new long[] {5, 6}).build();
        final Run r = run(t);
        final RunMetrics.Percentiles ttft = r.report().metrics().ttftNanos().get(WorkloadSpec.TRACE_PHASE);
        final RunMetrics.RequestPhase q = r.report().metrics().requests().get(WorkloadSpec.TRACE_PHASE);
        assertEquals(3, ttft.count());
        final Map<Long, Long> end = r.finishedAt();
        final long arrival = r.scheduledAt().get(1L);
        assertTrue(end.get(2L) - arrival >= 2 * (end.get(1L) - arrival) * 9 / 10, "the second request's TTFT "
            + (end.get(2L) - arrival) + " ns does not hold its wait for the first " + (end.get(1L) - arrival));
        assertTrue(ttft.max() >= 3 * 11_000_000L, "the last request's TTFT " + ttft.max() + " holds no queueing");
        assertTrue(q.queueNanos().max() >= 2 * 11_000_000L, "queueing " + q.queueNanos().max() + " ns");
        assertTrue(q.queueNanos().max() < ttft.max(), "queueing is a part of TTFT");
    }

    @Test
    void shouldShareEqualLeadingBlocksAndNeverStoreATrailingPartialSlot() {
        // Request 1: 1000 tokens in blocks [1, 2] (block 2 partial: 488 tokens, 30 whole slots of 16 and 8 tokens
        // over). Request 2 arrives later with [1, 2, 3]: it finds block 1's 32 slots and block 2's 30, not the 31st.
        // Request 3 starts with another id: nothing.
        final Trace t = new Trace.Builder("shared", 512).add(0, 1000, 1, new long[] {1, 2})
            .add(1_000_000_000L, 1500, 1, new long[] {1, 2, 3}).add(2_000_000_000L, 1500, 1, new long[] {9, 2, 3})
            .build();
        final Run r = run(t);
        assertEquals(List.of(0, 62, 0), List.copyOf(r.cached().values()));
        // Where the 4000 input tokens came from: request 2's 62 slots of 16 from L1 (it holds all of L2), the rest
        // prefilled: request 1's 62 slots and request 3's 93 at first sight; request 2's 31st slot of block 2 (never
        // stored: request 1's was partial) and its block 3 at first sight; a partial slot each (8, 12, 12 tokens).
        final TokenSources sources = r.report().metrics().tokenSources();
        assertEquals(new TokenSources(4000, 62 * 16, 0, 4000 - 62 * 16, new PrefilledBy((62 + 31 + 93) * 16, 0, 0,
            0, 0, 0, 8 + 12 + 12)), sources);
    }

    @Test
    void shouldNeverShareAKeyBetweenRequestsWithoutReuseInformation() {
        // Ids as the Azure reader makes them: distinct per request and block; two equal requests share nothing.
        final Trace t = new Trace.Builder("azure", 512)
            .add(0, 1024, 1, new long[] {Trace.DISTINCT_IDS_FROM, Trace.DISTINCT_IDS_FROM | 1})
            .add(1_000_000_000L, 1024, 1, new long[] {Trace.DISTINCT_IDS_FROM | 1L << 24,
                Trace.DISTINCT_IDS_FROM | 1L << 24 | 1})
            .build();
        assertEquals(List.of(0, 0), List.copyOf(run(t).cached().values()));
    }

    @Test
    void shouldGiveTheSameDigestForTheSameTraceAndSeedAndAnotherForOtherArrivals() {
        final Trace t = new Trace.Builder("two", 512).add(0, 1024, 1, new long[] {1, 2})
            .add(4_000_000_000L, 1024, 1, new long[] {1, 3}).build();
        final Run once = run(t);
        final Run again = run(t);
        assertEquals(once.report().eventDigest(), again.report().eventDigest());
        final Run earlier = run(new Trace.Builder("two", 512).add(0, 1024, 1, new long[] {1, 2})
            .add(2_000_000_000L, 1024, 1, new long[] {1, 3}).build());
        assertTrue(earlier.scheduledAt().get(2L) < 2_100_000_000L);
        assertNotEquals(once.report().eventDigest(), earlier.report().eventDigest());
    }

    @Test
    void shouldDecodeOneTokenAStepAfterThePrefillAtTheDecodeStepsCost() {
        // One request of 1024 tokens that gives 5: its prefill step gives the first, then 4 steps of one token each,
        // costing 1 ms + 36 us a sequence + 48 ns a token of context (1024 + the k tokens it gave).
        final Trace t = new Trace.Builder("decode", 512).add(0, 1024, 5, new long[] {1, 2}).build();
        final Run r = run(t);
        final List<CoreEvent.StepCompleted> steps = steps(r);
        assertEquals(5, steps.size(), steps.toString());
        assertEquals(1024, steps.getFirst().tokens());
        long decodeNs = 0;
        for (int k = 1; k <= 4; k++) {
            final CoreEvent.StepCompleted s = steps.get(k);
            assertEquals(1, s.tokens());
            assertEquals(1, s.requests());
            assertEquals(1_000_000 + EngineSpec.DECODE_NS_PER_SEQUENCE + EngineSpec.DECODE_NS_PER_CONTEXT_TOKEN
                * (1024 + k), s.forwardNs(), "decode step " + k);
            decodeNs += s.durationNs();
        }
        final RunMetrics.RequestPhase q = r.report().metrics().requests().get(WorkloadSpec.TRACE_PHASE);
        assertEquals(5, q.outputTokens());
        assertEquals(1, q.tpotNanos().count());
        assertTrue(Math.abs(q.tpotNanos().max() - decodeNs / 4) <= decodeNs / 4 / 500, "time per output token "
            + q.tpotNanos().max() + " ns, the decode steps' mean " + decodeNs / 4);
        final long ttft = r.report().metrics().ttftNanos().get(WorkloadSpec.TRACE_PHASE).max();
        assertTrue(Math.abs(q.endToEndNanos().max() - ttft - decodeNs) <= (ttft + decodeNs) / 500, "end to end "
            + q.endToEndNanos().max() + " ns is not the first token's " + ttft + " plus the decode steps' " + decodeNs);
    }

    @Test
    void shouldShareAStepsBudgetBetweenDecodeTokensAndAnotherRequestsPrefillChunk() {
        // A decodes 40 tokens; B arrives while it does. With a budget of 512, a step holds A's one token and 511 of
        // B's: B's 1024 tokens take three steps (511, 511 and 2), every one beside one of A's.
        final Trace t = new Trace.Builder("share", 512).add(0, 512, 40, new long[] {1})
            .add(20_000_000, 1024, 1, new long[] {5, 6}).build();
        final Run r = run(t, engine(512, 0, 2));
        final List<Long> shared = new ArrayList<>();
        for (final CoreEvent.StepCompleted s : steps(r)) {
            assertTrue(s.tokens() <= 512, "a step of " + s.tokens() + " tokens over the budget");
            if (s.requests() == 2) {
                shared.add(s.tokens());
            }
        }
        assertEquals(List.of(512L, 512L, 3L), shared, "B's chunks, each beside one of A's decode tokens");
    }

    @Test
    void shouldHoldKvBlocksForPromptAndGeneratedTokensUntilTheLastToken() {
        // A: 1024 tokens and 100 out holds (1024 + 99) / 16 = 70 blocks until its end; B needs 64. With 130 blocks B
        // waits for A's last token; with 134 it runs beside A.
        final Trace t = new Trace.Builder("blocks", 512).add(0, 1024, 100, new long[] {1, 2})
            .add(20_000_000, 1024, 1, new long[] {5, 6}).build();
        final Run short_ = run(t, engine(8192, 130, 2));
        final Run enough = run(t, engine(8192, 134, 2));
        final long aEnds = short_.finishedAt().get(1L);
        assertTrue(short_.scheduledAt().get(2L) >= aEnds, "B was scheduled at " + short_.scheduledAt().get(2L)
            + " ns, before A freed its blocks at " + aEnds);
        assertTrue(enough.scheduledAt().get(2L) < enough.finishedAt().get(1L), "B waited with blocks to spare");
        assertTrue(enough.finishedAt().get(2L) < enough.finishedAt().get(1L), "B ended before A's long decode");
    }

    @Test
    void shouldCapTheRequestsTheEngineHolds() {
        // maxRunning 1: B waits for all of A's decode; maxRunning 2: B runs beside it.
        final Trace t = new Trace.Builder("cap", 512).add(0, 1024, 50, new long[] {1, 2})
            .add(20_000_000, 1024, 1, new long[] {5, 6}).build();
        final Run one = run(t, engine(8192, 0, 1));
        final Run two = run(t, engine(8192, 0, 2));
        assertTrue(one.scheduledAt().get(2L) >= one.finishedAt().get(1L));
        assertTrue(two.scheduledAt().get(2L) < two.finishedAt().get(1L));
        final RunMetrics.RequestPhase q1 = one.report().metrics().requests().get(WorkloadSpec.TRACE_PHASE);
        final RunMetrics.RequestPhase q2 = two.report().metrics().requests().get(WorkloadSpec.TRACE_PHASE);
        assertTrue(q1.queueNanos().max() > 10 * q2.queueNanos().max() + 40_000_000L, "queueing " + q1.queueNanos()
            .max() + " ns with one running request, " + q2.queueNanos().max() + " ns with two");
    }

    // ---------------------------------------------------------------- helpers

    private static EngineSpec engine(final int budget, final int kvBlocks, final int maxRunning) {
        return new EngineSpec(budget, 10_000, 1_000_000, kvBlocks, 8, 100_000,
            dev.kvtier.harness.workload.ConnectorSpec.DEFAULT, maxRunning);
    }

    private static List<CoreEvent.StepCompleted> steps(final Run r) {
        final List<CoreEvent.StepCompleted> out = new ArrayList<>();
        for (final Timed t : r.events()) {
            if (t.event() instanceof CoreEvent.StepCompleted s) {
                out.add(s);
            }
        }
        return out;
    }

    private static Run run(final Trace trace) {
        return run(trace, ENGINE);
    }

    private static Run run(final Trace trace, final EngineSpec engine) {
        final WorkloadSpec w = WorkloadSpec.ofTrace(trace, 16, 1, engine);
        final long l2 = 64 * 96 * SLOT;
        final CoreConfig core = CoreConfig.builder(SLOT).l2Bytes(l2).l1Bytes(l2).stagingBatchBytes(16 * SLOT)
            .stagingPoolBytes(128 * SLOT).groupedWriteBatchBytes(64 * SLOT).build();
        final List<Timed> events = new ArrayList<>();
        final Clock[] clock = new Clock[1];
        final SimRun sim = new SimRun(new RunSpec("trace", core, w, 600_000_000_000L), new SimModel(
            DeviceProfile.DATACENTER_NVME, FREE, 10_000_000), 1,
            List.of(e -> events.add(new Timed(clock[0].nowNs(),
                e))));
        clock[0] = sim.serverClock();
        final RunReport report = sim.run();
        assertTrue(report.ok(), report.violation());
        return new Run(report, events);
    }
}
