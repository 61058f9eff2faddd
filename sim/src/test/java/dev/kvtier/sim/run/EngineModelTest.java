package dev.kvtier.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.Clock;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.harness.run.RunSpec;
import dev.kvtier.harness.workload.EngineSpec;
import dev.kvtier.harness.workload.PhaseSpec;
import dev.kvtier.harness.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine model's mechanism (docs/design/ENGINE-MODEL.md), each property shown in a whole simulated run: server work
 * delays the next step's store calls and so every request's TTFT; a full staging pool blocks the step; an asynchronous
 * load does not hold up other requests' steps; a prompt longer than the budget is prefilled over several steps; TTFT
 * ends with the step that produced the first token.
 */
class EngineModelTest {
    private static final long SLOT = 64 * 1024;
    private static final HostCostProfile FREE = new HostCostProfile("free", 0, 0, 0, 0, 0, 1L << 50, 1L << 50);

    /** One recorded event with its time. */
    private record Timed(long timeNs, CoreEvent event) {}

    @Test
    void shouldDelayTheNextStepsStoreCallsAndTtftByTheServersWork() {
        // Per-slot stores (16 spans a request, coalescing off) at 0 and at 2 ms a span: 32 ms of server work a store;
        // a 256-token budget schedules one 256-token request a step.
        final RunSpec spec = spec(8, 4, 256, 256, 0, SLOT * 16, false);
        final Run idle = run(spec, FREE);
        final Run busy = run(spec, withSpanNs(FREE, 2_000_000));
        final long extraCallNs = scheduleNs(busy) - scheduleNs(idle);
        // Every store but the last is followed by a step whose calls queue behind its 16 spans: 7 x 32 ms at least.
        assertTrue(extraCallNs >= 7 * 16 * 2_000_000L, "store calls waited only " + extraCallNs + " ns longer");
        final double ttftIdle = idle.report.metrics().ttftNanos().get("cold").mean();
        final double ttftBusy = busy.report.metrics().ttftNanos().get("cold").mean();
        assertTrue(ttftBusy > ttftIdle + 16 * 2_000_000L, "TTFT " + ttftIdle + " -> " + ttftBusy);
    }

    @Test
    void shouldBlockTheStepWhileStagingIsFull() {
        // A request is 16 slots; batches of 4 slots. A pool of one batch makes get_finished wait for 3
        // acknowledgements.
        final HostCostProfile slowCopies = new HostCostProfile("slow-copies", 0, 0, 0, 0, 0, 1_000_000_000L,
            1L << 50);
        final Run roomy = run(spec(2, 1, 256, 8192, 4 * SLOT, 16 * SLOT, true), slowCopies);
        final Run full = run(spec(2, 1, 256, 8192, 4 * SLOT, 4 * SLOT, true), slowCopies);
        // Each 4-slot store copies 256 KiB at 1 GB/s on the server thread: 262 us; a full pool waits for three of them.
        assertTrue(stagingNs(full) >= stagingNs(roomy) + 2 * 3 * 262_144L,
            "staging took " + stagingNs(roomy) + " ns with room, " + stagingNs(full) + " ns with a full pool");
    }

    @Test
    void shouldRunOtherRequestsStepsWhileALoadIsInFlight() {
        // Phase 1 caches prompts 0 and 1; phase 2 asks for 0..3: the hits load (slowly), the misses are prefilled.
        final WorkloadSpec w = new WorkloadSpec(4, 256, 16, 4, 0, 1, 1,
            List.of(new PhaseSpec("cold", 2, PhaseSpec.Order.SEQUENTIAL, 0),
                new PhaseSpec("mixed", 4, PhaseSpec.Order.SEQUENTIAL, 0)),
            new EngineSpec(256, 40_000, 1_000_000, 0, 8, 100_000));
        // L1 holds 8 of the 32 cached slots: the hits are read from the (slow) L2.
        final RunSpec spec = new RunSpec("mixed", core(4 * 16 * SLOT, 8 * SLOT, 16 * SLOT, 32 * SLOT, false), w,
            600_000_000_000L);
        final DeviceProfile slow = new DeviceProfile("slow", 200_000_000, 1_000, 1_000, 1_000_000_000L,
            1_000_000_000L, 4);
        final Run r = run(spec, FREE, slow);
        long firstLoadEnd = Long.MAX_VALUE;
        long stepsBefore = 0;
        boolean mixed = false;
        for (final Timed t : r.events) {
            if (t.event() instanceof CoreEvent.PhaseStarted p) {
                mixed = p.phase().equals("mixed");
            } else if (mixed && t.event() instanceof CoreEvent.LoadWaited lw) {
                firstLoadEnd = Math.min(firstLoadEnd, t.timeNs());
                assertTrue(lw.waitNs() >= 200_000_000L, "a load from the slow device took " + lw.waitNs() + " ns");
            } else if (mixed && t.event() instanceof CoreEvent.StepCompleted s && t.timeNs() < firstLoadEnd
                && s.tokens() > 0) {
                stepsBefore++;
            }
        }
        assertTrue(stepsBefore >= 2, "only " + stepsBefore + " steps ran while the first load was in flight");
    }

    @Test
    void shouldPrefillAPromptLongerThanTheBudgetOverSeveralSteps() {
        // 1024-token prompts, a 256-token budget: four steps a request, one client.
        final RunSpec spec = spec(2, 1, 1024, 256, 0, 64 * SLOT, true);
        final Run r = run(spec, FREE);
        final List<CoreEvent.StepCompleted> cold = steps(r, "cold");
        assertEquals(8, cold.size(), "two requests of four chunks each");
        for (final CoreEvent.StepCompleted s : cold) {
            assertEquals(256, s.tokens());
            assertEquals(1, s.requests());
        }
        assertEquals(2, r.report.metrics().ttftNanos().get("cold").count());
    }

    @Test
    void shouldEndTtftWithTheStepThatGaveTheFirstToken() {
        // One client, no queueing: a request arrives as the last step ends, and its TTFT is its one step.
        final Run r = run(spec(3, 1, 256, 8192, 0, 16 * SLOT, true), FREE);
        long lastStepEnd = -1;
        long lastStepNs = -1;
        int checked = 0;
        for (final Timed t : r.events) {
            if (t.event() instanceof CoreEvent.StepCompleted s) {
                lastStepEnd = t.timeNs();
                lastStepNs = s.durationNs();
            } else if (t.event() instanceof CoreEvent.RequestFinished f && f.phase().equals("cold")) {
                assertEquals(lastStepEnd, t.timeNs(), "first token at the end of its step");
                if (f.requestId() > 1) {
                    assertEquals(lastStepNs, f.latencyNs(), "request " + f.requestId() + ": TTFT is its step");
                    checked++;
                }
            }
        }
        assertEquals(2, checked);
        assertFalse(r.report.metrics().engine().isEmpty());
    }

    // ---------------------------------------------------------------- helpers

    private record Run(RunReport report, List<Timed> events) {}

    private static Run run(final RunSpec spec, final HostCostProfile host) {
        return run(spec, host, DeviceProfile.DATACENTER_NVME);
    }

    private static Run run(final RunSpec spec, final HostCostProfile host, final DeviceProfile device) {
        final List<Timed> events = new ArrayList<>();
        final Clock[] clock = new Clock[1];
        final SimRun sim = new SimRun(spec, new SimModel(device, host, 10_000_000), 1,
            List.of(e -> events.add(new Timed(clock[0].nowNs(), e))));
        clock[0] = sim.serverClock();
        final RunReport report = sim.run();
        assertTrue(report.ok(), report.violation());
        return new Run(report, events);
    }

    /** {@code prompts} prompts of {@code tokens}, cold then warm, from {@code clients} clients. */
    private static RunSpec spec(final int prompts, final int clients, final int tokens, final int budget,
                                final long batchBytes, final long poolBytes, final boolean coalesce) {
        final int blocks = tokens / 16;
        final WorkloadSpec w = new WorkloadSpec(prompts, tokens, 16, clients, 0, 1, 1,
            List.of(new PhaseSpec("cold", prompts, PhaseSpec.Order.SEQUENTIAL, 0),
                new PhaseSpec("warm", prompts, PhaseSpec.Order.SEQUENTIAL, 0)),
            new EngineSpec(budget, 40_000, 1_000_000, 0, 8, 100_000));
        final long batch = batchBytes > 0 ? batchBytes : (long) blocks * SLOT;
        final long l2 = (long) prompts * blocks * SLOT * 2;
        return new RunSpec("engine", core(l2, l2, batch, poolBytes, coalesce), w, 600_000_000_000L);
    }

    private static CoreConfig core(final long l2Bytes, final long l1Bytes, final long batchBytes,
                                   final long poolBytes, final boolean coalesce) {
        return CoreConfig.builder(SLOT).l2Bytes(l2Bytes).l1Bytes(l1Bytes).stagingBatchBytes(batchBytes)
            .stagingPoolBytes(poolBytes).coalesceStoreSpans(coalesce).groupedWriteBatchBytes(64 * SLOT).build();
    }

    private static HostCostProfile withSpanNs(final HostCostProfile p, final long spanNs) {
        return new HostCostProfile(p.name() + "-span", spanNs, p.entryNs(), p.ioSubmitNs(), p.ioCompleteNs(),
            p.requestNs(), p.memcpyBytesPerSec(), p.dmaBytesPerSec(), true);
    }

    private static long scheduleNs(final Run r) {
        return r.report.metrics().engine().get("cold").scheduleNanos();
    }

    private static long stagingNs(final Run r) {
        return r.report.metrics().engine().get("cold").stagingNanos();
    }

    private static List<CoreEvent.StepCompleted> steps(final Run r, final String phase) {
        final List<CoreEvent.StepCompleted> out = new ArrayList<>();
        for (final Timed t : r.events) {
            if (t.event() instanceof CoreEvent.StepCompleted s && s.phase().equals(phase)) {
                out.add(s);
            }
        }
        return out;
    }
}
