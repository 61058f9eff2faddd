package dev.kvtier.lab.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.core.value.PrefixKey;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acknowledgement log says what the judge needs, in event order, and the kill switch is pulled at exactly the
 * event the kill point names: the index's own first checkpoint is set-up, a later checkpoint write is the run's, and a
 * log write is neither.
 */
class AckWriterTest {
    private static final long LOG_OFFSET = 8192;
    private static final PrefixKey KEY = new PrefixKey(3, 4);

    @TempDir
    Path dir;

    /** What the switch throws instead of killing the test's JVM. */
    private static final class Killed extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    private static final List<CoreEvent> LIFE = List.of(new CoreEvent.IndexOpenRequested(false),
        new CoreEvent.IndexIoSubmitted(1, IoOp.WRITE, 0, 4096), new CoreEvent.IndexOpened(1, false, 0, 0, 8192),
        new CoreEvent.IndexIoSubmitted(2, IoOp.WRITE, 0, 4096), new CoreEvent.IndexCheckpointed(1, 1, 0, 4096),
        new CoreEvent.PhaseStarted("cold"), new CoreEvent.Allocated(1, KEY, 1, 0, 1),
        new CoreEvent.IndexIoSubmitted(3, IoOp.WRITE, LOG_OFFSET, 4096), new CoreEvent.Committed(KEY, 1),
        new CoreEvent.IndexIoSubmitted(4, IoOp.WRITE, 4096, 4096), new CoreEvent.IndexIoSubmitted(5, IoOp.FLUSH, 0, 0),
        new CoreEvent.IndexCheckpointed(1, 9, 1, 4096),
        new CoreEvent.RingEvicted(KEY, 1, 0, 1, true, 0, CoreEvent.RingEvictReason.SPACE),
        new CoreEvent.ShutdownRequested(), new CoreEvent.ShutdownCompleted(true));

    private AckLog feed(final String point, final int expectKillAt) throws Exception {
        final Path file = dir.resolve(point.replace('+', '_') + ".acks");
        final int[] pulled = {-1};
        try (AckWriter w = new AckWriter(file, point.equals("never") ? null : KillPoint.parse(point), LOG_OFFSET,
            () -> {
                throw new Killed();
            })) {
            for (int i = 0; i < LIFE.size(); i++) {
                try {
                    w.emit(LIFE.get(i));
                } catch (final Killed k) {
                    pulled[0] = i;
                    break;
                }
            }
            if (pulled[0] < 0 && !point.equals("never")) {
                assertThrows(Killed.class, w::killAtEnd);
            }
        }
        assertEquals(expectKillAt, pulled[0], point);
        return AckLog.read(file);
    }

    @Test
    void shouldLogWhatTheJudgeNeedsAndKillAtTheRunsFirstCheckpointNotTheIndexFormat() throws Exception {
        final AckLog log = feed("checkpoint.1+1", 10);
        assertEquals(10, log.killedAt());
        assertEquals("checkpoint", log.killedLife());
        final AckLog.Allocation a = log.allocations().get(1L);
        assertEquals(KEY, a.key());
        assertEquals(6, a.allocatedAt());
        assertEquals(8, a.committedAt());
        assertTrue(!a.evicted());
        assertEquals(List.of("opened", "ready", "phase", "ckpt"), log.markers().stream().map(AckLog.Marker::what)
            .toList());
        assertEquals(1, log.acknowledged());
    }

    @Test
    void shouldKillInSetupAPhaseOrShutdownAtItsOffset() throws Exception {
        assertEquals("setup", feed("setup+0", 0).killedLife());
        assertEquals(6, feed("cold+1", 6).killedAt());
        final AckLog shutdown = feed("shutdown+1", 14);
        assertEquals("shutdown", shutdown.killedLife());
        assertEquals(14, shutdown.shutdownDurableAt());
        assertEquals(12, shutdown.allocations().get(1L).evictedAt());
    }

    @Test
    void shouldKillARunThatOutlivedItsPointAtItsEndAndLetTheMeasuringRunFinish() throws Exception {
        final AckLog late = feed("warm+3", -1);
        assertEquals("end", late.killedLife());
        final AckLog measured = feed("never", -1);
        assertEquals(AckLog.NEVER, measured.killedAt());
        final Life life = measured.life(1);
        assertEquals(5, life.setupEvents());
        assertEquals(List.of(new Life.Phase("cold", 8)), life.phases());
        assertEquals(List.of(3L), life.checkpoints());
        assertEquals(2, life.shutdownEvents());
    }
}
