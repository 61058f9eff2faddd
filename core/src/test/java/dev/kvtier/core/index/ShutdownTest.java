package dev.kvtier.core.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.l2.AllocationRef;
import dev.kvtier.core.port.IoOp;
import dev.kvtier.core.testkit.CrashRig;
import dev.kvtier.core.testkit.ManualDevice;
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
}
