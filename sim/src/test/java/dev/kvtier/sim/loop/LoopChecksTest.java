package dev.kvtier.sim.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The virtual loop's and the server thread's checks fire on a misuse. */
class LoopChecksTest {

    @Test
    void anEventThatStepsTheLoopIsRefused() {
        final EventLoop loop = new EventLoop(100);
        final List<Long> ran = new ArrayList<>();
        loop.at(20, () -> ran.add(loop.nowNs()));
        loop.at(10, loop::step); // would run the event at 20 inside the one at 10
        final IllegalStateException e = assertThrows(IllegalStateException.class, loop::run);
        assertTrue(e.getMessage().contains("inside an event"), e.getMessage());
        assertEquals(List.of(), ran);
        loop.run(); // the refusal left the loop usable
        assertEquals(List.of(20L), ran);
    }

    @Test
    void aNullTaskOrInputIsRefusedWhereItIsGiven() {
        final EventLoop loop = new EventLoop(100);
        assertThrows(NullPointerException.class, () -> loop.at(1, null));
        assertThrows(NullPointerException.class, () -> new ServerThread(loop).submit(null));
        assertEquals(0, loop.pending());
    }

    @Test
    void anInputNeverStartsBeforeTheLastOneEnded() {
        final EventLoop loop = new EventLoop(100);
        final ServerThread server = new ServerThread(loop);
        server.submit(() -> {});
        // A crash without dropping the loop's events (SimRun drops them first) leaves the old drain scheduled.
        server.crash();
        server.submit(() -> server.charge(100));
        server.submit(() -> {});
        final IllegalStateException e = assertThrows(IllegalStateException.class, loop::run);
        assertTrue(e.getMessage().contains("before the last one ended at 100 ns"), e.getMessage());
    }
}
