package dev.kvtier.realio.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.store.LoadResult;
import dev.kvtier.core.store.StoreResult;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.realio.device.IoUringDevice;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.memory.NativeRegion;
import dev.kvtier.realio.testkit.PostedHeapDevice;
import dev.kvtier.realio.testkit.Scratch;
import dev.kvtier.realio.testkit.Uring;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The core end to end on real I/O: a KvServer over an io_uring device (O_DIRECT file, fixed buffers over the L1
 * pool) and native memory, run by the wall-clock loop (the index on a heap device whose completions the loop
 * delivers). Stores more than L1 holds, drains, loads everything back (partly from L2) and checks every byte with
 * stamping.
 */
class KvServerOverIoUringTest {
    private static final long SLOT = 4096;
    private static final int L1_SLOTS = 8;
    private static final int L2_SLOTS = 64;
    private static final int KEYS = 32;
    private static final int BATCH = 4;
    private static final long TIMEOUT_NS = 10_000_000_000L;

    @Test
    void shouldStoreEvictAndLoadBackEveryByteThroughTheRealDevice() {
        Uring.assumeAvailable();
        final CoreConfig config = CoreConfig.builder(SLOT).l2Bytes(L2_SLOTS * SLOT).l1Bytes(L1_SLOTS * SLOT).build();
        final List<CoreEvent> events = new ArrayList<>();
        final EventSink sink = events::add;
        try (Scratch scratch = new Scratch(); NativeMemory memory = new NativeMemory(4L << 20);
             IoUringDevice device = (IoUringDevice) IoUringDevice.open(scratch.file("l2.bin"), config.l2Bytes(), 8,
                 memory).orThrow()) {
            final PostedHeapDevice index = new PostedHeapDevice(KvServer.indexLayout(config).deviceBytes(), memory);
            final KvServer server = new KvServer(config, memory, device, index, sink);
            assertEquals(0, device.registerBuffers(memory.liveSegments()), "the L1 pool as a fixed buffer");
            assertEquals(1, device.fixedBufferCount());
            final RealLoop loop = RealLoop.over(device, server::onIoComplete);
            index.connect(loop, server::onIoComplete);
            final AtomicReference<String[]> opened = new AtomicReference<>();
            server.open(false, error -> opened.set(new String[] {error}));
            assertEquals(RealLoop.Outcome.STOPPED, loop.runFor(() -> opened.get() != null, TIMEOUT_NS));
            assertNull(opened.get()[0], "the index opened");
            final List<AllocationRef> refs = storeAll(server, memory, loop);
            final AtomicBoolean drained = new AtomicBoolean();
            server.drain(() -> drained.set(true));
            assertEquals(RealLoop.Outcome.STOPPED, loop.runFor(drained::get, TIMEOUT_NS));
            assertTrue(server.tieredStore().residentBytes() <= L1_SLOTS * SLOT);
            assertFalse(resident(server, refs.getFirst()), "the first key was evicted from L1");

            final NativeRegion dest = memory.allocate("dest", KEYS * SLOT);
            final List<LoadRange> ranges = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                ranges.add(LoadRange.whole(refs.get(i), SLOT, i * SLOT));
            }
            final AtomicReference<LoadResult> loaded = new AtomicReference<>();
            server.load(9_000, ranges, dest, loaded::set);
            assertEquals(RealLoop.Outcome.STOPPED, loop.runFor(() -> loaded.get() != null, TIMEOUT_NS));
            assertTrue(loaded.get().ok(), String.valueOf(loaded.get()));
            assertTrue(loaded.get().hitBytes() < KEYS * SLOT, "some bytes came from L2");
            for (int i = 0; i < KEYS; i++) {
                assertEquals(-1, memory.firstMismatch(dest, i * SLOT, SLOT, tag(i)), "key " + i);
            }
            final long reads = events.stream().filter(e -> e instanceof CoreEvent.IoCompleted c
                && c.op() == dev.kvtier.core.value.IoOp.READ).count();
            assertTrue(reads > 0, "L2 reads happened");
            drained.set(false);
            server.drain(() -> drained.set(true));
            assertEquals(RealLoop.Outcome.STOPPED, loop.runFor(drained::get, TIMEOUT_NS));
            server.close();
            assertEquals(0, device.outstanding());
        }
    }

    private static long tag(final int key) {
        return 0xC0FFEE00L + key;
    }

    private static List<AllocationRef> storeAll(final KvServer server, final NativeMemory memory,
                                                final RealLoop loop) {
        final List<AllocationRef> refs = new ArrayList<>();
        for (int b = 0; b < KEYS / BATCH; b++) {
            final List<PrefixKey> keys = new ArrayList<>();
            for (int i = 0; i < BATCH; i++) {
                keys.add(new PrefixKey(b, i));
            }
            final List<AllocationRef> batch = new ArrayList<>();
            for (final AllocationResult r : server.allocate(b, 1, keys, 1)) {
                batch.add(((AllocationResult.Claimed) r).ref());
            }
            final NativeRegion src = memory.allocate("src", BATCH * SLOT);
            final List<SpanPiece> spans = new ArrayList<>();
            for (int i = 0; i < BATCH; i++) {
                memory.stamp(src, i * SLOT, SLOT, tag(b * BATCH + i));
                spans.add(new SpanPiece(batch.get(i), i * SLOT, batch.get(i).fileOffset(SLOT), SLOT));
            }
            final AtomicReference<StoreResult> stored = new AtomicReference<>();
            server.store(100 + b, src, spans, stored::set);
            assertEquals(RealLoop.Outcome.STOPPED, loop.runFor(() -> stored.get() != null, TIMEOUT_NS));
            assertEquals(BATCH, stored.get().accepted().size());
            assertEquals(0, stored.get().writeErrorsSurfaced());
            final AtomicReference<Integer> committed = new AtomicReference<>();
            server.commit(batch, committed::set);
            assertEquals(BATCH, committed.get());
            memory.free(src);
            refs.addAll(batch);
        }
        return refs;
    }

    private static boolean resident(final KvServer server, final AllocationRef ref) {
        final boolean[] found = new boolean[1];
        server.tieredStore().l1().entries().inFileOrder()
            .forEach(e -> found[0] |= e.fileOffset() == ref.fileOffset(SLOT));
        return found[0];
    }
}
