package dev.kvtier.realio.calibrate;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.harness.check.InvariantChecker;
import dev.kvtier.harness.metrics.RunMetrics;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.run.FanOutSink;
import dev.kvtier.harness.run.RunRecorder;
import dev.kvtier.realio.loop.CallOutcome;
import dev.kvtier.realio.memory.ByteWork;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.realio.run.LoopTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures the real core's host costs for the simulator's host cost model: the core runs on native memory over
 * devices (data and index) that complete every I/O at once without moving data (the core never reads data, so only
 * its own work is timed), with events going nowhere. Each figure is the best of several rounds after warm-up:
 * memcpy bandwidth (256 MiB copies); per span admitted (1024 one-slot spans a store, minus the copy); per I/O
 * (the same store with one write a span, minus the first; split evenly between submit and completion); per entry
 * hit (a load of 1024 resident slots, minus the copy); per client call (single-key lookups). DMA bandwidth is taken
 * equal to memcpy: this machine has no GPU.
 *
 * <p><b>Warmed up first, for a set time.</b> Each measurement repeats untimed until it has run for
 * {@code warmupNs} before its timed rounds, so the figures are those of the JIT's compiled code whatever ran before
 * in the JVM. A fixed count of rounds did not: the same calibration measured 29 to 39 us a span and 3.4 to 7.0 us
 * an event in a fresh JVM (five sittings), and 4.2 us and 0.66 us right after real runs in the same JVM.
 *
 * <p>Then what else a real run pays on its one thread: the slot checksum (over slots not touched just before, as a
 * read-back's, and right after a copy into the slot, as a store's), the workload's stamp and check of slot
 * content, per byte on slots of the run's size ({@link ContentCosts}), and per event the run's own observers
 * (invariant checkers, metrics and digest, as {@link RunRecorder} wires them in a real run): the same store with and
 * without them, the difference over its events. The one-slot spans above are 4 KiB, so their checksums (a few
 * hundred nanoseconds each) stay inside the per-span figure.
 *
 * <p>The profile says {@code engineOnServerThread}: kvtier's real mode runs the engine's steps and the server's
 * inputs on one loop thread, so the simulator charges the engine's work to that thread too.
 */
public final class HostCalibration {
    private static final long SLOT = 4096;
    private static final int SPANS = 1024;
    /** The checkers' liveness bound: far beyond any measurement. */
    private static final long LIVENESS_NS = 3_600_000_000_000L;

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

    /** Warm-up of each measurement in a full calibration. */
    public static final long WARMUP_NS = 1_000_000_000L;
    /** Warm-up of each measurement in a quick one. */
    public static final long QUICK_WARMUP_NS = 100_000_000L;

    /**
     * A full calibration's measurements (6 rounds after {@link #WARMUP_NS}) or a quick one's (2 after
     * {@link #QUICK_WARMUP_NS}), content on slots of {@code slotBytes}.
     */
    public static HostCostProfile measure(final String name, final long slotBytes, final boolean quick) {
        return measure(name, quick ? 2 : 6, slotBytes, quick ? QUICK_WARMUP_NS : WARMUP_NS);
    }

    /**
     * Runs the measurements (each warmed up for {@code warmupNs}, then {@code rounds} rounds; content on slots of
     * {@code slotBytes}); the profile.
     */
    public static HostCostProfile measure(final String name, final int rounds, final long slotBytes,
                                          final long warmupNs) {
        try (NativeMemory memory = new NativeMemory((1L << 30) + 64 * slotBytes)) {
            final Warmed w = new Warmed(rounds, warmupNs);
            final long memcpy = memcpy(memory, w);
            final double copyNs = SLOT * 1e9 / memcpy;
            final double span = w.best(() -> storeSpans(memory, SPANS * SLOT * 4)) / SPANS - copyNs;
            final double withIo = w.best(() -> storeSpans(memory, SLOT)) / SPANS - copyNs;
            final double hit = w.best(() -> loadHits(memory)) / SPANS - copyNs;
            final double call = w.best(() -> lookups(memory)) / SPANS;
            final long io = Math.max(0, Math.round(withIo - span));
            final ContentCosts content = ContentCosts.measure(memory, slotBytes, w);
            final long event = Math.round(eventNs(memory, w));
            return new HostCostProfile(name, Math.max(0, Math.round(span)), Math.max(0, Math.round(hit)), io / 2,
                io - io / 2, Math.max(0, Math.round(call)), memcpy, memcpy, true, content.checksumBytesPerSec(),
                content.verifyBytesPerSec(), content.stampBytesPerSec(), event, true,
                content.checksumCopiedBytesPerSec());
        }
    }

    /**
     * {@code p} with the bandwidths of the byte work a real run paid ({@code work}: copies, both kinds of checksum,
     * fills, checks; DMA taken equal to the copies', as this machine has no GPU); a kind the run did not do keeps
     * {@code p}'s figure.
     */
    public static HostCostProfile withByteRates(final HostCostProfile p, final ByteWork work) {
        final long copy = rate(work.copy(), p.memcpyBytesPerSec());
        return new HostCostProfile(p.name(), p.spanNs(), p.entryNs(), p.ioSubmitNs(), p.ioCompleteNs(),
            p.requestNs(), copy, work.copy().operations() > 0 ? copy : p.dmaBytesPerSec(), p.copiesOnServerThread(),
            rate(work.checksum(), p.checksumBytesPerSec()), rate(work.verify(), p.verifyBytesPerSec()),
            rate(work.stamp(), p.stampBytesPerSec()), p.eventNs(), p.engineOnServerThread(),
            rate(work.checksumCopied(), p.checksumCopiedBytesPerSec()));
    }

    /**
     * {@code p} with the copy bandwidth and the cost per copy that two real runs' copies give together: {@code few}
     * large copies and {@code many} smaller ones (the same workload per slot), each run's copy time taken as its bytes
     * at the bandwidth plus its copies at the cost. Unchanged when the two do not determine both (as many copies in
     * each, or a negative cost or bandwidth from the runs' noise).
     */
    public static HostCostProfile withCopyCost(final HostCostProfile p, final ByteWork.Tally few,
                                               final ByteWork.Tally many) {
        final double det = (double) few.bytes() * many.operations() - (double) many.bytes() * few.operations();
        if (det == 0) {
            return p;
        }
        final double nsPerByte = ((double) few.ns() * many.operations() - (double) many.ns() * few.operations()) / det;
        final double perCopy = ((double) few.bytes() * many.ns() - (double) many.bytes() * few.ns()) / det;
        if (nsPerByte <= 0 || perCopy < 0) {
            return p;
        }
        final long copy = Math.round(1e9 / nsPerByte);
        return new HostCostProfile(p.name(), p.spanNs(), p.entryNs(), p.ioSubmitNs(), p.ioCompleteNs(),
            p.requestNs(), copy, copy, p.copiesOnServerThread(), p.checksumBytesPerSec(), p.verifyBytesPerSec(),
            p.stampBytesPerSec(), p.eventNs(), p.engineOnServerThread(), p.checksumCopiedBytesPerSec(),
            Math.round(perCopy));
    }

    /**
     * The loop's other work (its time on a CPU besides its byte work) that two real runs paid, split into a part per
     * event and a part that grows with the byte work: {@code few} (the workload as it is) and {@code many} (per slot:
     * about the same byte work in many more events) give the two. When they do not determine both (as many events per
     * byte work in each, or a negative part from the runs' noise), the whole of it is taken as the part that grows with
     * the byte work when the per-event part came out negative, else as the part per event.
     *
     * @return {@code [ns an event, millionths of the byte work]}, or null when either run's CPU time is unknown
     */
    public static long[] otherWork(final LoopTime few, final LoopTime many) {
        if (!few.known() || !many.known()) {
            return null;
        }
        final double e1 = few.events();
        final double e2 = many.events();
        final double w1 = few.byteWorkNs();
        final double w2 = many.byteWorkNs();
        final double o1 = few.otherNs();
        final double o2 = many.otherNs();
        final double det = e1 * w2 - e2 * w1;
        if (det != 0) {
            final double perEvent = (o1 * w2 - o2 * w1) / det;
            final double perByteWork = (e1 * o2 - e2 * o1) / det;
            if (perEvent >= 0 && perByteWork >= 0) {
                return new long[] {Math.round(perEvent), ppm(perByteWork)};
            }
            if (perEvent < 0 && w1 + w2 > 0) {
                return new long[] {0, ppm((o1 + o2) / (w1 + w2))};
            }
        }
        return new long[] {e1 + e2 == 0 ? 0 : Math.round((o1 + o2) / (e1 + e2)), 0};
    }

    private static long ppm(final double fraction) {
        return Math.min(HostCostProfile.OTHER_WORK_PPM_MAX, Math.round(fraction * 1e6));
    }

    /**
     * {@code p} charging the loop's other work as a calibration run paid it ({@link #otherWork}): {@code eventNs} per
     * event (it includes the observers the microbenchmark measured, so it replaces their figure; kept when 0) and
     * {@code ppm} millionths of every byte work's time.
     */
    public static HostCostProfile withOtherWork(final HostCostProfile p, final long eventNs, final long ppm) {
        return new HostCostProfile(p.name(), p.spanNs(), p.entryNs(), p.ioSubmitNs(), p.ioCompleteNs(),
            p.requestNs(), p.memcpyBytesPerSec(), p.dmaBytesPerSec(), p.copiesOnServerThread(),
            p.checksumBytesPerSec(), p.verifyBytesPerSec(), p.stampBytesPerSec(), eventNs > 0 ? eventNs : p.eventNs(),
            p.engineOnServerThread(), p.checksumCopiedBytesPerSec(), p.copyOpNs(), ppm);
    }

    private static long rate(final ByteWork.Tally t, final long otherwise) {
        return t.operations() > 0 && t.bytesPerSec() > 0 ? t.bytesPerSec() : otherwise;
    }

    /** The profile as TOML, with {@code notes} as comments after the first line. */
    public static String toml(final HostCostProfile p, final List<String> notes) {
        final String text = toml(p);
        final int eol = text.indexOf('\n') + 1;
        final StringBuilder b = new StringBuilder(text.substring(0, eol));
        for (final String note : notes) {
            b.append("# ").append(note.replace('\n', ' ')).append('\n');
        }
        return b.append(text.substring(eol)).toString();
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
            checksumBytesPerSec = %d
            verifyBytesPerSec = %d
            stampBytesPerSec = %d
            # per event: the loop's work besides its byte work (calibration runs), else the observers' (microbenchmark)
            eventNs = %d
            # kvtier's real mode runs the engine's work on the server's one loop thread
            engineOnServerThread = %b
            # a store's checksum of a slot it just copied into L1 (a read-back's costs checksumBytesPerSec)
            checksumCopiedBytesPerSec = %d
            # per copy, besides its bytes at memcpyBytesPerSec (0 when the calibration ran no per-slot run)
            copyOpNs = %d
            # the loop's other work that grows with its byte work, millionths of the byte work's time
            otherWorkPpm = %d
            """, p.name(), p.spanNs(), p.entryNs(), p.ioSubmitNs(), p.ioCompleteNs(), p.requestNs(),
            p.memcpyBytesPerSec(), p.dmaBytesPerSec(), p.checksumBytesPerSec(), p.verifyBytesPerSec(),
            p.stampBytesPerSec(), p.eventNs(), p.engineOnServerThread(), p.checksumCopiedBytesPerSec(), p.copyOpNs(),
            p.otherWorkPpm());
    }

    private static long memcpy(final NativeMemory memory, final Warmed w) {
        final long size = 256L << 20;
        final MemoryRegion a = memory.allocate("a", size);
        final MemoryRegion b = memory.allocate("b", size);
        final double ns = w.best(() -> {
            final long t0 = System.nanoTime();
            memory.copy(a, 0, b, 0, size);
            return System.nanoTime() - t0;
        });
        memory.free(a);
        memory.free(b);
        return Math.round(size * 1e9 / ns);
    }

    private record Rig(KvServer server, InstantDevice device, InstantDevice index, List<AllocationRef> refs,
                       MemoryRegion source, AtomicLong events) {}

    private static Rig rig(final NativeMemory memory, final long writeBatchBytes, final boolean coalesce) {
        return rig(memory, writeBatchBytes, coalesce, false);
    }

    /**
     * A core over instant devices; with {@code observed}, its events go to the observers a real run has (the
     * standard invariant checkers, the metrics and the event digest, through {@link RunRecorder}), else nowhere.
     */
    private static Rig rig(final NativeMemory memory, final long writeBatchBytes, final boolean coalesce,
                           final boolean observed) {
        final CoreConfig c = CoreConfig.builder(SLOT).l2Bytes(4 * SPANS * SLOT).l1Bytes(2 * SPANS * SLOT)
            .coalesceStoreSpans(coalesce).groupedWriteBatchBytes(writeBatchBytes).stagingBatchBytes(SLOT)
            .stagingPoolBytes(SLOT).build();
        final InstantDevice device = new InstantDevice();
        final InstantDevice index = new InstantDevice();
        final FanOutSink sink = new FanOutSink();
        final AtomicLong events = new AtomicLong();
        final KvServer server = new KvServer(c, memory, device, index, sink);
        if (observed) {
            final Clock clock = System::nanoTime;
            final InvariantChecker checker = InvariantChecker.standard(c, clock,
                () -> server.tieredStore().l1().entries().size(), () -> server.tieredStore().residentBytes(),
                LIVENESS_NS);
            new RunRecorder(checker, new RunMetrics(clock), clock).observe(sink);
        }
        sink.add(e -> events.incrementAndGet());
        device.server = server;
        index.server = server;
        // The index device moves no data either: the opener reads zeros (a blank device) and formats it.
        final CallOutcome opened = new CallOutcome();
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
        return new Rig(server, device, index, refs, memory.allocate("src", SPANS * SLOT), events);
    }

    private static long storeSpans(final NativeMemory memory, final long writeBatchBytes) {
        return storeSpans(memory, writeBatchBytes, false, new long[1]);
    }

    /** The store of {@link #storeSpans(NativeMemory, long)}; its events go to {@code events[0]}. */
    private static long storeSpans(final NativeMemory memory, final long writeBatchBytes, final boolean observed,
                                   final long[] events) {
        final Rig rig = rig(memory, writeBatchBytes, false, observed);
        final List<SpanPiece> spans = new ArrayList<>(SPANS);
        for (int i = 0; i < SPANS; i++) {
            spans.add(new SpanPiece(rig.refs.get(i), i * SLOT, rig.refs.get(i).fileOffset(SLOT), SLOT));
        }
        final long before = rig.events().get();
        final long t0 = System.nanoTime();
        rig.server.store(1, rig.source, spans, r -> {});
        rig.device.completeAll();
        final long ns = System.nanoTime() - t0;
        events[0] = rig.events().get() - before;
        close(memory, rig);
        return ns;
    }

    /** Per event, what the run's observers add: a store with and without them, the difference over its events. */
    private static double eventNs(final NativeMemory memory, final Warmed w) {
        final long[] events = new long[1];
        final double bare = w.best(() -> storeSpans(memory, SLOT, false, new long[1]));
        final double observed = w.best(() -> storeSpans(memory, SLOT, true, events));
        return Math.max(0, (observed - bare) / Math.max(1, events[0]));
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
