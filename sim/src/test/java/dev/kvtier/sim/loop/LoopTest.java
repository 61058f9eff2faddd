package dev.kvtier.sim.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.harness.entropy.SeededEntropy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoopTest {

    @Test
    void shouldRunEventsByTimeThenBySchedulingOrder() {
        final EventLoop loop = new EventLoop(100);
        final List<String> order = new ArrayList<>();
        loop.at(20, () -> order.add("b@20"));
        loop.at(10, () -> order.add("a@10"));
        loop.at(20, () -> order.add("c@20"));
        loop.at(10, () -> order.add("d@10"));
        loop.run();
        assertEquals(List.of("a@10", "d@10", "b@20", "c@20"), order);
        assertEquals(20, loop.nowNs());
    }

    @Test
    void shouldClampThePastToNow() {
        final EventLoop loop = new EventLoop(100);
        final List<Long> times = new ArrayList<>();
        loop.at(50, () -> loop.at(10, () -> times.add(loop.nowNs())));
        loop.run();
        assertEquals(List.of(50L), times);
    }

    @Test
    void shouldStopAtTheEventBudget() {
        final EventLoop loop = new EventLoop(3);
        final Runnable[] self = new Runnable[1];
        self[0] = () -> loop.at(loop.nowNs() + 1, self[0]);
        loop.at(0, self[0]);
        assertThrows(EventLoop.LoopBudgetExceeded.class, loop::run);
    }

    @Test
    void shouldGiveOneStreamPerSeedAndIndependentChildren() {
        assertEquals(new SeededEntropy(5).nextLong(), new SeededEntropy(5).nextLong());
        assertNotEquals(new SeededEntropy(5).nextLong(), new SeededEntropy(6).nextLong());
        final SeededEntropy used = new SeededEntropy(5);
        used.nextLong();
        used.nextLong();
        assertEquals(new SeededEntropy(5).child("device").nextLong(), used.child("device").nextLong(),
            "a child's stream depends on the parent's seed and its name, not on draws");
        assertNotEquals(new SeededEntropy(5).child("device").nextLong(), new SeededEntropy(5).child("faults")
            .nextLong());
    }

    @Test
    void shouldServeServerInputsInOrderAndChargeTime() {
        final EventLoop loop = new EventLoop(100);
        final ServerThread server = new ServerThread(loop);
        final List<String> log = new ArrayList<>();
        loop.at(0, () -> {
            server.submit(() -> {
                server.charge(100);
                log.add("a done at " + server.nowNs());
            });
            server.submit(() -> log.add("b starts at " + server.nowNs()));
        });
        loop.at(50, () -> server.submit(() -> log.add("c starts at " + server.nowNs())));
        loop.run();
        assertEquals(List.of("a done at 100", "b starts at 100", "c starts at 100"), log);
        assertEquals(100, server.busyTotalNs());
    }
}
