package dev.kvtier.realio.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoOp;
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

    @Test
    void shouldBoundItsTimers() {
        final RealLoop small = new RealLoop(device, completions::add, 2, 8, 8, 1_000_000L);
        small.post(() -> {});
        small.post(() -> {});
        assertThrows(IllegalStateException.class, () -> small.post(() -> {}));
    }
}
