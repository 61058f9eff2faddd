package dev.kvtier.core.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.testkit.CrashRig;
import dev.kvtier.core.testkit.ManualDevice;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A clean shutdown makes an {@code l1}-mode commit durable: a power loss right after it loses nothing. */
class ShutdownTest {
    private static final long SLOT = 4096;

    private static CrashRig committedInL1Mode(final byte[][] bytes) {
        final CrashRig rig = CrashRig.formatted(CrashRig.config(SLOT, 8, 16, CommitMode.L1));
        final AllocationRef a = rig.claimOne("a");
        bytes[0] = rig.store(a, 5);
        assertEquals(1, rig.commit(a).get());
        return rig;
    }

    @Test
    void shouldLoseAnUnflushedL1CommitWithoutAShutdownButKeepItAfterOne() {
        final byte[][] bytes = new byte[1][];
        final CrashRig unflushed = committedInL1Mode(bytes);
        unflushed.settle();
        final CrashRig lost = unflushed.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
        lost.openOrFail(true);
        assertFalse(lost.visible("a"), "without a flush an l1 commit is not durable");

        final CrashRig rig = committedInL1Mode(bytes);
        final AtomicReference<String> done = new AtomicReference<>("pending");
        rig.server.shutdown(done::set);
        rig.settle();
        assertNull(done.get(), "shut down durably");
        assertEquals(List.of(new CoreEvent.ShutdownCompleted(true)),
            rig.events.of(CoreEvent.ShutdownCompleted.class));
        assertTrue(rig.data.history().stream().anyMatch(r -> r.op() == IoOp.FLUSH), "the data device was flushed");
        assertThrows(IllegalStateException.class, () -> rig.claimOne("b"), "no input after shutdown");
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
        next.openOrFail(true);
        final CrashRig.Loaded l = next.load(next.found("a"));
        next.settle();
        assertTrue(l.ok());
        assertArrayEquals(bytes[0], l.bytes());
    }

    /**
     * The order {@link #shouldLoseAnUnflushedL1CommitWithoutAShutdownButKeepItAfterOne} never takes: the index
     * completes first. The COMMIT record is written (not flushed) before the shutdown asks for anything, then the data
     * write and the data flush complete; the index must still be flushed, after the data, before the shutdown says it
     * is durable.
     */
    @Test
    void shouldFlushTheIndexAtShutdownWhenItsLastRecordWasWrittenBeforeTheDataFlushCompleted() {
        final byte[][] bytes = new byte[1][];
        final CrashRig rig = committedInL1Mode(bytes);
        rig.index.completeAll();
        assertEquals(1, rig.index.unflushedWrites(), "the COMMIT record is written, not flushed");
        final AtomicReference<String> done = new AtomicReference<>("pending");
        rig.server.shutdown(done::set);
        rig.data.complete(rig.data.oldest(IoOp.WRITE).ioId());
        assertEquals(0, rig.index.inFlightCount(), "no index I/O before the data is flushed");
        rig.data.complete(rig.data.oldest(IoOp.FLUSH).ioId());
        assertEquals("pending", done.get(), "not durable before the index is flushed");
        assertEquals(List.of(IoOp.FLUSH), rig.index.inFlight().stream().map(r -> r.op()).toList(),
            "the index is flushed once the data flush completed");
        rig.index.completeAll();
        assertNull(done.get(), "shut down durably");
        assertEquals(0, rig.index.unflushedWrites());
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
        next.openOrFail(true);
        assertTrue(next.visible("a"), "an l1 commit survives a power loss after a clean shutdown");
        final CrashRig.Loaded l = next.load(next.found("a"));
        next.settle();
        assertTrue(l.ok());
        assertArrayEquals(bytes[0], l.bytes());
    }

    @Test
    void shouldFlushTheIndexAtShutdownWhenTheDataFlushCompletesWhileTheRecordIsBeingWritten() {
        final byte[][] bytes = new byte[1][];
        final CrashRig rig = committedInL1Mode(bytes);
        final AtomicReference<String> done = new AtomicReference<>("pending");
        rig.server.shutdown(done::set);
        rig.data.completeAll();
        rig.index.completeAll();
        rig.settle();
        assertNull(done.get(), "shut down durably");
        final CrashRig next = rig.crash(ManualDevice.CrashPolicy.LOSE_UNFLUSHED);
        next.openOrFail(true);
        assertTrue(next.visible("a"), "an l1 commit survives a power loss after a clean shutdown");
    }
}
