package dev.kvtier.core.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.store.StoreResult;
import dev.kvtier.core.testkit.CrashRig;
import dev.kvtier.core.testkit.ManualDevice.CrashPolicy;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.IoOp;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A committed allocation's bytes never change (docs/design/STORAGE-CORE.md 4.2): the server boundary refuses a span
 * into a committed allocation (COMMITTED) unless it writes again, whole slot by whole slot, exactly the bytes
 * committed. A rewrite of other bytes would tear a durable key at a crash (its COMMIT record holds the old
 * checksums), and a rewrite of part of a slot would make the slot's checksum unknown, so the key could never load
 * again.
 */
class CommittedRewriteTest {
    private static final long PAGE = 4096;
    /** Slots of two pages, so a crash can keep one page of a slot's write and lose the other. */
    private static final long SLOT = 2 * PAGE;

    @Test
    void shouldNotLetARewriteOfOtherBytesTearADurableKeyAtACrash() {
        final CrashRig rig = CrashRig.formatted(CrashRig.config(SLOT, 4, 8, CommitMode.DURABLE));
        final AllocationRef k = rig.claimOne("k");
        final byte[] committed = rig.store(k, 1);
        final AtomicReference<Integer> done = rig.commit(k);
        rig.settle();
        assertEquals(1, done.get(), "k is durable");

        final AtomicReference<StoreResult> rewrite = rig.storeBytes(k, CrashRig.pattern(2, SLOT));
        // A power loss with the first page of any write in flight on the media and its second page not.
        final CrashRig after = rig.crash((write, block) -> !write.completed() && block == 0,
            CrashPolicy.LOSE_UNFLUSHED);
        after.openOrFail(true);
        assertEquals(k, after.found("k"), "the durable key is recovered");
        final CrashRig.Loaded loaded = after.load(k);
        after.settle();
        assertTrue(loaded.ok(), "the durable key loads after the crash: " + loaded.result().get());
        assertArrayEquals(committed, loaded.bytes(0, SLOT), "its committed bytes");

        assertEquals(List.of(k), rewrite.get().rejected(), "the server refused the rewrite");
        assertEquals(List.of(RejectReason.COMMITTED), rig.events.of(CoreEvent.SpanRejected.class).stream()
            .map(CoreEvent.SpanRejected::reason).toList());
    }

    @Test
    void shouldAcceptARewriteOfTheCommittedBytesAndRefuseOtherBytesOrPartOfASlot() {
        final CrashRig rig = CrashRig.formatted(CrashRig.config(SLOT, 4, 8, CommitMode.L1));
        final AllocationRef k = rig.claimOne("k");
        final byte[] committed = rig.store(k, 1);
        rig.commit(k);
        rig.settle();
        final long writes = writes(rig);

        final StoreResult same = rig.storeBytes(k, committed).get();
        assertEquals(List.of(k), same.accepted(), "the same bytes again (a connector that saves what it loaded)");
        rig.settle();
        final StoreResult other = rig.storeBytes(k, CrashRig.pattern(2, SLOT)).get();
        final StoreResult part = rig.storeBytes(k, Arrays.copyOf(committed, (int) PAGE)).get();
        assertEquals(List.of(k), other.rejected(), "other bytes");
        assertEquals(List.of(k), part.rejected(), "the same bytes, but half a slot");
        assertEquals(List.of(RejectReason.COMMITTED, RejectReason.COMMITTED),
            rig.events.of(CoreEvent.SpanRejected.class).stream().map(CoreEvent.SpanRejected::reason).toList());
        assertEquals(0, rig.data.inFlightCount(), "nothing refused was written");
        assertEquals(writes + 1, writes(rig), "one data write more: the same bytes");

        final CrashRig.Loaded loaded = rig.load(k);
        rig.settle();
        assertTrue(loaded.ok(), "the key still loads: " + loaded.result().get());
        assertArrayEquals(committed, loaded.bytes(0, SLOT));
    }

    private static long writes(final CrashRig rig) {
        return rig.data.history().stream().filter(r -> r.op() == IoOp.WRITE).count();
    }
}
