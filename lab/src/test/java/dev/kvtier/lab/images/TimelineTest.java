package dev.kvtier.lab.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.record.DeviceRole;
import dev.kvtier.realio.record.IoLog;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The power-cut model of {@link Timeline} on hand-made records: a write is durable only once a flush of its own
 * device, submitted after the write completed, has completed; everything else submitted before a cut is in flight
 * there; and the planted fault makes the data device's flushes cover nothing.
 */
class TimelineTest {
    private final List<IoLog.Entry> entries = new ArrayList<>();

    private void submit(final DeviceRole role, final long id, final IoOp op, final long page, final int firstPage) {
        entries.add(new IoLog.Entry(IoLog.Kind.SUBMIT, role, id, op, page * 4096, op == IoOp.FLUSH ? 0 : 8192,
            firstPage, 0, entries.size() * 10L));
    }

    private void complete(final DeviceRole role, final long id, final IoOp op) {
        entries.add(new IoLog.Entry(IoLog.Kind.COMPLETE, role, id, op, 0, 0, -1, op == IoOp.FLUSH ? 0 : 8192,
            entries.size() * 10L));
    }

    /** w0 (data) completes, a data flush goes out, w1 (data) is submitted and completes, the flush completes. */
    private Timeline flushBetween(final PlantedFault fault) {
        submit(DeviceRole.DATA, 1, IoOp.WRITE, 0, 0); // entry 0
        complete(DeviceRole.DATA, 1, IoOp.WRITE); // 1
        submit(DeviceRole.DATA, 2, IoOp.FLUSH, 0, -1); // 2
        submit(DeviceRole.DATA, 3, IoOp.WRITE, 2, 2); // 3
        complete(DeviceRole.DATA, 3, IoOp.WRITE); // 4
        complete(DeviceRole.DATA, 2, IoOp.FLUSH); // 5
        return Timeline.of(entries, 77, fault);
    }

    @Test
    void shouldMakeDurableOnlyTheWritesCompletedBeforeTheFlushWasSubmitted() {
        final Timeline t = flushBetween(PlantedFault.NONE);
        assertEquals(2, t.writes().size());
        assertEquals(5, t.writes().get(0).durableAt(), "w0 completed before the flush went out");
        assertEquals(Timeline.NEVER, t.writes().get(1).durableAt(), "w1 completed after: the flush may not cover it");
        assertEquals(List.of(5), t.flushPoints());
        assertEquals(6, t.cuts());
        assertEquals(77, t.eventsAt(6), "the last cut's events are the run's");
        assertEquals(30, t.eventsAt(3));
    }

    @Test
    void shouldKeepAWriteInFlightUntilTheCutAfterItsFlushCompleted() {
        final Timeline t = flushBetween(PlantedFault.NONE);
        assertTrue(t.inFlight(0).isEmpty(), "nothing submitted before the first entry");
        assertEquals(List.of(0), numbers(t.inFlight(1)));
        assertEquals(List.of(0, 1), numbers(t.inFlight(5)), "the flush has not completed at cut 5");
        assertEquals(List.of(1), numbers(t.inFlight(6)), "w0 is durable after the flush's completion");
    }

    @Test
    void shouldNotLetAFlushOfTheIndexCoverAWriteOfTheData() {
        submit(DeviceRole.DATA, 1, IoOp.WRITE, 0, 0);
        complete(DeviceRole.DATA, 1, IoOp.WRITE);
        submit(DeviceRole.INDEX, 1, IoOp.FLUSH, 0, -1);
        complete(DeviceRole.INDEX, 1, IoOp.FLUSH);
        final Timeline t = Timeline.of(entries, 40, PlantedFault.NONE);
        assertEquals(Timeline.NEVER, t.writes().getFirst().durableAt());
        assertEquals(List.of(0), numbers(t.inFlight(4)));
    }

    @Test
    void shouldMakeNothingDurableThroughADataFlushWhenTheFaultIsPlanted() {
        final Timeline t = flushBetween(PlantedFault.DATA_FLUSH_IGNORED);
        assertEquals(Timeline.NEVER, t.writes().get(0).durableAt());
        assertEquals(List.of(0, 1), numbers(t.inFlight(6)));
        assertEquals(List.of(5), t.flushPoints(), "the plan's flush points stay where the run flushed");
    }

    @Test
    void shouldLeaveAFailedWriteInFlightForever() {
        submit(DeviceRole.INDEX, 1, IoOp.WRITE, 0, 0);
        entries.add(new IoLog.Entry(IoLog.Kind.COMPLETE, DeviceRole.INDEX, 1, IoOp.WRITE, 0, 0, -1, -5, 0));
        submit(DeviceRole.INDEX, 2, IoOp.FLUSH, 0, -1);
        complete(DeviceRole.INDEX, 2, IoOp.FLUSH);
        final Timeline t = Timeline.of(entries, 40, PlantedFault.NONE);
        assertEquals(Timeline.NEVER, t.writes().getFirst().durableAt());
        assertEquals(List.of(0), numbers(t.inFlight(4)));
    }

    private static List<Integer> numbers(final List<Timeline.Write> writes) {
        return writes.stream().map(Timeline.Write::number).toList();
    }
}
