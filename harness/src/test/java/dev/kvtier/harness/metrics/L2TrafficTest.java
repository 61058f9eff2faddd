package dev.kvtier.harness.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.IoOp;
import org.junit.jupiter.api.Test;

class L2TrafficTest {
    private static final long S = 1_000_000_000L;

    private static CoreEvent.IoSubmitted io(final IoOp op, final long bytes) {
        return new CoreEvent.IoSubmitted(1, op, 0, bytes, 1);
    }

    /** Windows of one minute from the first I/O: the busiest minute's bytes, per direction. */
    @Test
    void shouldKeepTheBusiestMinutePerDirection() {
        final L2Traffic t = new L2Traffic();
        t.data(io(IoOp.WRITE, 100), 10 * S); // window 0 (origin 10 s)
        t.data(io(IoOp.WRITE, 50), 69 * S); // window 0
        t.data(io(IoOp.WRITE, 120), 70 * S); // window 1
        t.data(io(IoOp.READ, 7), 71 * S);
        t.data(io(IoOp.WRITE, 20), 200 * S); // window 3
        t.index(new CoreEvent.IndexIoSubmitted(2, IoOp.WRITE, 0, 4096));
        t.index(new CoreEvent.IndexIoSubmitted(3, IoOp.READ, 0, 4096));
        final L2Traffic.Figures f = t.figures();
        assertEquals(290, f.writeBytes());
        assertEquals(7, f.readBytes());
        assertEquals(4096, f.indexWriteBytes());
        assertEquals(150, f.peakMinuteWriteBytes());
        assertEquals(7, f.peakMinuteReadBytes());
    }

    /** A drive of 1 GiB written 1 GiB (data and index) over half a day takes two drive writes a day. */
    @Test
    void shouldCountDriveWritesPerDayAtTheRunsRate() {
        final L2Traffic.Figures f = new L2Traffic.Figures(0, (1L << 30) - 4096, 4096, 0, 0);
        assertEquals(2.0, f.driveWritesPerDay(1L << 30, 43_200 * S), 1e-9);
    }
}
