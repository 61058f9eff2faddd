package dev.kvtier.sim.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine's worker beside the server overlaps it; the worker that is the server's one thread (kvtier's real mode)
 * takes turns with it: engine work starts once the server's step is done, and the server's next input waits for the
 * engine's work.
 */
class EngineWorkerTest {

    @Test
    void shouldOverlapTheServerWhenTheEngineHasItsOwnWorker() {
        final EventLoop loop = new EventLoop(100);
        final ServerThread server = new ServerThread(loop);
        final EngineWorker engine = EngineWorker.own(loop);
        final List<String> log = new ArrayList<>();
        scenario(loop, server, engine, log);
        loop.run();
        assertFalse(engine.onServerThread());
        // The server's 100 ns step starts at 0, the engine's 300 ns at 1; the input sent at 50 runs at 100.
        assertEquals(List.of("engine done at 301", "second input starts at 100"), log);
        assertEquals(100, server.busyTotalNs());
        assertEquals(300, engine.busyTotalNs());
    }

    @Test
    void shouldTakeTurnsWithTheServerWhenTheEngineRunsOnItsThread() {
        final EventLoop loop = new EventLoop(100);
        final ServerThread server = new ServerThread(loop);
        final EngineWorker engine = EngineWorker.onServerThread(loop, server);
        final List<String> log = new ArrayList<>();
        scenario(loop, server, engine, log);
        loop.run();
        assertTrue(engine.onServerThread());
        // The engine's work waits for the server's step (0..100) and holds the thread to 400; the input sent at 50
        // starts then.
        assertEquals(List.of("engine done at 400", "second input starts at 400"), log);
        assertEquals(100, server.busyTotalNs());
        assertEquals(300, engine.busyTotalNs());
    }

    @Test
    void shouldQueueEngineWorkBehindEarlierEngineWorkOnTheServerThread() {
        final EventLoop loop = new EventLoop(100);
        final ServerThread server = new ServerThread(loop);
        final EngineWorker engine = EngineWorker.onServerThread(loop, server);
        final List<Long> starts = new ArrayList<>();
        loop.at(10, () -> engine.charge(40));
        loop.at(20, () -> {
            engine.charge(5);
            server.submit(() -> starts.add(server.nowNs()));
        });
        loop.run();
        // 10..50 and 50..55 for the engine, then the input.
        assertEquals(55, engine.nowNs());
        assertEquals(List.of(55L), starts);
    }

    @Test
    void shouldDropTheEnginesHoldOnTheThreadWhenThePowerFails() {
        final EventLoop loop = new EventLoop(100);
        final ServerThread server = new ServerThread(loop);
        final EngineWorker engine = EngineWorker.onServerThread(loop, server);
        final List<Long> starts = new ArrayList<>();
        loop.at(0, () -> engine.charge(1_000));
        loop.at(10, () -> {
            server.crash();
            engine.crash();
            server.submit(() -> starts.add(server.nowNs()));
        });
        loop.run();
        assertEquals(List.of(10L), starts);
    }

    /** A 100 ns server step at 0, 300 ns of engine work at 1, and a second server input at 50. */
    private static void scenario(final EventLoop loop, final ServerThread server, final EngineWorker engine,
                                 final List<String> log) {
        loop.at(0, () -> server.submit(() -> server.charge(100)));
        loop.at(1, () -> {
            engine.charge(300);
            log.add("engine done at " + engine.nowNs());
        });
        loop.at(50, () -> server.submit(() -> log.add("second input starts at " + server.nowNs())));
    }
}
