package dev.kvtier.realio.calibrate;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.geometry.PrefixKey;
import dev.kvtier.core.l2.AllocationRef;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.span.SpanPiece;
import dev.kvtier.core.store.LoadRange;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.realio.loop.Completion;
import dev.kvtier.realio.memory.NativeMemory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Measures the real core's host costs for the simulator's host cost model: the core runs on native memory over
 * devices (data and index) that complete every I/O at once without moving data (the core never reads data, so only
 * its own work is timed), with events going nowhere. Each figure is the best of several rounds after warm-up:
 * memcpy bandwidth (256 MiB copies); per span admitted (1024 one-slot spans a store, minus the copy); per I/O
 * (the same store with one write a span, minus the first; split evenly between submit and completion); per entry
 * hit (a load of 1024 resident slots, minus the copy); per client call (single-key lookups). DMA bandwidth is taken
 * equal to memcpy: this machine has no GPU.
 */
public final class HostCalibration {
    private static final long SLOT = 4096;
    private static final int SPANS = 1024;

    private HostCalibration() {}

    /** A device that completes every submitted I/O when {@link #completeAll} is called, moving no data. */
    private static final class InstantDevice implements Device {
        private final ArrayDeque<IoRequest> submitted = new ArrayDeque<>();
        private KvServer server;

        @Override
        public long capacityBytes() {
            return 1L << 40;
        }

        @Override
        public void submit(final IoRequest request) {
            submitted.add(request);
        }

        void completeAll() {
            while (!submitted.isEmpty()) {
                final IoRequest r = submitted.poll();
                server.onIoComplete(new IoCompletion(r.ioId(), r.lengthBytes()));
            }
        }
    }

    /** Runs the measurements ({@code rounds} rounds each) and returns the profile. */
    public static HostCostProfile measure(final String name, final int rounds) {
        try (NativeMemory memory = new NativeMemory(1L << 30)) {
            final long memcpy = memcpy(memory, rounds);
            final double copyNs = SLOT * 1e9 / memcpy;
            final double span = best(rounds, () -> storeSpans(memory, SPANS * SLOT * 4)) / SPANS - copyNs;
            final double withIo = best(rounds, () -> storeSpans(memory, SLOT)) / SPANS - copyNs;
            final double hit = best(rounds, () -> loadHits(memory)) / SPANS - copyNs;
            final double call = best(rounds, () -> lookups(memory)) / SPANS;
            final long io = Math.max(0, Math.round(withIo - span));
            return new HostCostProfile(name, Math.max(0, Math.round(span)), Math.max(0, Math.round(hit)), io / 2,
                io - io / 2, Math.max(0, Math.round(call)), memcpy, memcpy);
        }
    }

    /** The profile as TOML, in the shape the scenario loader reads. */
    public static String toml(final HostCostProfile p) {
        return String.format(Locale.ROOT, """
            # kvtier host cost profile, measured by kvtier calibrate on this machine's core
            name = "%s"
            spanNs = %d
            entryNs = %d
            ioSubmitNs = %d
            ioCompleteNs = %d
            requestNs = %d
            memcpyBytesPerSec = %d
            dmaBytesPerSec = %d
            """, p.name(), p.spanNs(), p.entryNs(), p.ioSubmitNs(), p.ioCompleteNs(), p.requestNs(),
            p.memcpyBytesPerSec(), p.dmaBytesPerSec());
    }

    private interface Timed {
        long runNs();
    }

    private static double best(final int rounds, final Timed t) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < rounds + 2; i++) {
            best = Math.min(best, t.runNs());
        }
        return best;
    }

    private static long memcpy(final NativeMemory memory, final int rounds) {
        final long size = 256L << 20;
        final MemoryRegion a = memory.allocate("a", size);
        final MemoryRegion b = memory.allocate("b", size);
        final double ns = best(rounds, () -> {
            final long t0 = System.nanoTime();
            memory.copy(a, 0, b, 0, size);
            return System.nanoTime() - t0;
        });
        memory.free(a);
        memory.free(b);
        return Math.round(size * 1e9 / ns);
    }

    private record Rig(KvServer server, InstantDevice device, InstantDevice index, List<AllocationRef> refs,
                       MemoryRegion source) {}

    private static Rig rig(final NativeMemory memory, final long writeBatchBytes, final boolean coalesce) {
        final CoreConfig c = CoreConfig.builder(SLOT).l2Bytes(4 * SPANS * SLOT).l1Bytes(2 * SPANS * SLOT)
            .coalesceStoreSpans(coalesce).groupedWriteBatchBytes(writeBatchBytes).stagingBatchBytes(SLOT)
            .stagingPoolBytes(SLOT).build();
        final InstantDevice device = new InstantDevice();
        final InstantDevice index = new InstantDevice();
        final KvServer server = new KvServer(c, memory, device, index, EventSink.NONE);
        device.server = server;
        index.server = server;
        // The index device moves no data either: the opener reads zeros (a blank device) and formats it.
        final Completion opened = new Completion();
        server.open(false, opened);
        index.completeAll();
        if (!opened.done()) {
            throw new IllegalStateException("the index did not open");
        }
        if (opened.error() != null) {
            throw new IllegalStateException(opened.error());
        }
        final List<PrefixKey> keys = new ArrayList<>();
        for (int i = 0; i < SPANS; i++) {
            keys.add(new PrefixKey(7, i));
        }
        final List<AllocationRef> refs = new ArrayList<>();
        for (final AllocationResult r : server.allocate(1, 1, keys, 1)) {
            refs.add(((AllocationResult.Claimed) r).ref());
        }
        return new Rig(server, device, index, refs, memory.allocate("src", SPANS * SLOT));
    }

    private static long storeSpans(final NativeMemory memory, final long writeBatchBytes) {
        final Rig rig = rig(memory, writeBatchBytes, false);
        final List<SpanPiece> spans = new ArrayList<>(SPANS);
        for (int i = 0; i < SPANS; i++) {
            spans.add(new SpanPiece(rig.refs.get(i), i * SLOT, rig.refs.get(i).fileOffset(SLOT), SLOT));
        }
        final long t0 = System.nanoTime();
        rig.server.store(1, rig.source, spans, r -> {});
        rig.device.completeAll();
        final long ns = System.nanoTime() - t0;
        close(memory, rig);
        return ns;
    }

    private static long loadHits(final NativeMemory memory) {
        final Rig rig = rig(memory, 64L << 20, false);
        final List<SpanPiece> spans = new ArrayList<>(SPANS);
        final List<LoadRange> ranges = new ArrayList<>(SPANS);
        for (int i = 0; i < SPANS; i++) {
            spans.add(new SpanPiece(rig.refs.get(i), i * SLOT, rig.refs.get(i).fileOffset(SLOT), SLOT));
            ranges.add(LoadRange.whole(rig.refs.get(i), SLOT, i * SLOT));
        }
        rig.server.store(1, rig.source, spans, r -> {});
        rig.device.completeAll();
        rig.server.commit(rig.refs, n -> {});
        final long t0 = System.nanoTime();
        rig.server.load(2, ranges, rig.source, r -> {});
        final long ns = System.nanoTime() - t0;
        close(memory, rig);
        return ns;
    }

    private static long lookups(final NativeMemory memory) {
        final Rig rig = rig(memory, 64L << 20, false);
        final List<PrefixKey> one = List.of(rig.refs.getFirst().key());
        final long t0 = System.nanoTime();
        for (int i = 0; i < SPANS; i++) {
            rig.server.lookup(1, one);
        }
        final long ns = System.nanoTime() - t0;
        close(memory, rig);
        return ns;
    }

    private static void close(final NativeMemory memory, final Rig rig) {
        rig.server.drain(() -> {});
        rig.device.completeAll();
        rig.index.completeAll();
        rig.server.close();
        memory.free(rig.source);
    }
}
