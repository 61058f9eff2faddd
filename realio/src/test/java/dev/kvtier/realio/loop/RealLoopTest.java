package dev.kvtier.realio.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.device.Devices;
import dev.kvtier.realio.device.IoChoice;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.memory.NativeRegion;
import dev.kvtier.realio.testkit.Scratch;
import dev.kvtier.realio.testkit.Uring;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RealLoopTest {
    private Scratch scratch;
    private NativeMemory memory;
    private PolledDevice device;
    private final List<IoCompletion> completions = new ArrayList<>();
    private RealLoop loop;

    @BeforeEach
    void setUp() {
        Uring.assumeAvailable();
        scratch = new Scratch();
        memory = new NativeMemory(1 << 20);
        device = Devices.open(scratch.file("l2.bin"), 1 << 20, 8, IoChoice.URING, memory).orThrow();
        loop = RealLoop.over(device, completions::add);
    }

    @AfterEach
    void tearDown() {
        if (device != null) {
            device.close();
        }
        if (memory != null) {
            memory.close();
        }
        if (scratch != null) {
            scratch.close();
        }
    }

    @Test
    void shouldRunTimersInTimeOrderThenInTheOrderScheduled() {
        final List<String> order = new ArrayList<>();
        final long t = loop.nowNs();
        loop.at(t + 2_000_000, () -> order.add("A"));
        loop.at(t + 1_000_000, () -> order.add("B"));
        loop.at(t + 1_000_000, () -> order.add("C"));
        loop.post(() -> order.add("D"));
        assertEquals(RealLoop.Outcome.STOPPED, loop.runFor(() -> order.size() == 4, 5_000_000_000L));
        assertEquals(List.of("D", "B", "C", "A"), order);
    }

    @Test
    void shouldRunATaskPostedDuringAStepInALaterStep() {
        final List<String> order = new ArrayList<>();
        loop.post(() -> {
            order.add("first");
            loop.post(() -> order.add("second"));
        });
        loop.step();
        assertEquals(List.of("first"), order);
        loop.step();
        assertEquals(List.of("first", "second"), order);
    }

    @Test
    void shouldWaitInsteadOfSpinningWhenIdle() {
        final long start = System.nanoTime();
        assertEquals(RealLoop.Outcome.DEADLINE, loop.runFor(() -> false, 50_000_000L));
        assertTrue(System.nanoTime() - start >= 50_000_000L);
        assertTrue(loop.steps() < 40, "steps " + loop.steps());
        assertTrue(loop.idleWaits() >= 4, "idle waits " + loop.idleWaits());
    }

    @Test
    void shouldWakeForACompletionBeforeTheNextTimer() {
        final NativeRegion r = memory.allocate("r", 65536);
        final boolean[] late = new boolean[1];
        loop.at(loop.nowNs() + 2_000_000_000L, () -> late[0] = true);
        device.submitBlock(9, IoOp.WRITE, 0, r, 0, 65536);
        final long start = System.nanoTime();
        assertEquals(RealLoop.Outcome.STOPPED, loop.runFor(() -> !completions.isEmpty(), 5_000_000_000L));
        assertTrue(System.nanoTime() - start < 1_000_000_000L);
        assertEquals(new IoCompletion(9, 65536), completions.getFirst());
        assertEquals(1, loop.pendingTimers());
    }

    /** Spins (byte work stands in) until {@code ns} have passed. */
    private static void work(final long ns) {
        final long until = System.nanoTime() + ns;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }

    @Test
    void shouldStampEachTaskWhenItStartsNotWhenItsStepStarted() {
        final long[] seen = new long[2];
        final long t = loop.nowNs();
        loop.at(t, () -> {
            seen[0] = loop.nowNs();
            work(20_000_000L);
        });
        loop.at(t, () -> seen[1] = loop.nowNs());
        loop.step();
        assertTrue(seen[1] != 0, "both tasks ran in the one step");
        assertTrue(seen[1] - seen[0] >= 20_000_000L,
            "the second task's time " + seen[1] + " is after the first's work, "
                + "which began at " + seen[0]);
    }

    @Test
    void shouldStampACompletionWhenItIsDeliveredAfterTheStepsEarlierWork() {
        final long[] seen = new long[2];
        final RealLoop[] timed = new RealLoop[1];
        timed[0] = new RealLoop(device, c -> seen[1] = timed[0].nowNs(), 16, 16, 16, 1_000_000L);
        final NativeRegion r = memory.allocate("r", 65536);
        device.submitBlock(9, IoOp.WRITE, 0, r, 0, 65536);
        timed[0].step(); // submits the write
        Assumptions.assumeTrue(seen[1] == 0, "the write completed within its own step; nothing to check");
        timed[0].post(() -> {
            seen[0] = timed[0].nowNs();
            work(30_000_000L); // the write completes meanwhile
        });
        timed[0].step();
        assertTrue(seen[1] != 0, "the completion was delivered in the step of the task");
        assertTrue(seen[1] - seen[0] >= 30_000_000L, "delivered at " + seen[1] + ", after the task that began at "
            + seen[0]);
    }

    /**
     * Two completions ready at once: a task the first one posts runs before the second is delivered (one completion a
     * step), as a due engine step runs after the completion in hand, not after all that were ready.
     */
    @Test
    void shouldLetATaskPostedByACompletionRunBeforeTheNextReadyCompletion() {
        final List<String> order = new ArrayList<>();
        final RealLoop[] fair = new RealLoop[1];
        fair[0] = RealLoop.over(device, c -> {
            order.add("completion " + c.ioId());
            if (c.ioId() == 1 || c.ioId() == 2) {
                fair[0].post(() -> order.add("task after " + c.ioId()));
            }
        });
        final NativeRegion r = memory.allocate("r", 2 * 65536);
        device.submitBlock(1, IoOp.WRITE, 0, r, 0, 65536);
        device.submitBlock(2, IoOp.WRITE, 65536, r, 65536, 65536);
        device.flush();
        work(50_000_000L); // both writes complete meanwhile
        assertEquals(RealLoop.Outcome.STOPPED, fair[0].runFor(() -> order.size() == 4, 5_000_000_000L));
        final int first = order.getFirst().equals("completion 1") ? 1 : 2;
        assertEquals(List.of("completion " + first, "task after " + first, "completion " + (3 - first),
            "task after " + (3 - first)), order);
    }

    @Test
    void shouldBoundItsTimers() {
        final RealLoop small = new RealLoop(device, completions::add, 2, 8, 8, 1_000_000L);
        small.post(() -> {});
        small.post(() -> {});
        assertThrows(IllegalStateException.class, () -> small.post(() -> {}));
    }
}
