package dev.kvtier.cli.real;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.journal.codec.EventDigest;
import dev.kvtier.realio.device.IoUringDevice;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.loop.RealLoop;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.harness.check.Invariant;
import dev.kvtier.harness.check.InvariantChecker;
import dev.kvtier.harness.check.InvariantViolation;
import dev.kvtier.harness.entropy.SeededEntropy;
import dev.kvtier.harness.metrics.RunMetrics;
import dev.kvtier.harness.run.FanOutSink;
import dev.kvtier.harness.run.RunRecorder;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.harness.run.RunSpec;
import dev.kvtier.harness.workload.WorkloadDriver;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The real-I/O composition root: the same core and workload driver as the simulator, on the wall-clock loop, over
 * a real L2 device and a real device for the crash-safe index (io_uring or FileChannel, O_DIRECT), and native
 * memory. Every stored slot is filled with its key's seeded pattern and every loaded slot is checked byte for byte;
 * every invariant checker runs as in virtual time. The L1 pool, staging and the engine KV region are registered with
 * the data device's io_uring as fixed buffers.
 *
 * <p>A run first opens the index ({@link KvServer#open}): formats a fresh one, or with {@code recover} rebuilds it from
 * the index device, so that a run after a restart finds the keys an earlier run committed and loads them (every
 * loaded byte still checked: a wrong byte is invariant 12, exit 1). Then the workload runs, and the run shuts down
 * durably through the core ({@link KvServer#shutdown}, journaled like any input): a FLUSH of the data device, then
 * every index record written and flushed, so a later {@code --recover} run finds every key this one committed even
 * after a power loss.
 */
public final class RealRun {

    private final RunSpec spec;
    private final long seed;
    private final PolledDevice device;
    private final PolledDevice indexDevice;
    private final NativeMemory memory;
    private final boolean recover;

    /**
     * What opening the index found and how long {@link KvServer#open} took on the wall clock (reading, replaying the
     * log, and making the first checkpoint durable).
     *
     * @param recover      whether the run asked to recover
     * @param fromDisk     whether a checkpoint was found and recovered
     * @param chunks       committed chunks recovered
     * @param records      log records replayed after the checkpoint
     * @param bytesRead    bytes read from the index device
     * @param openNanos    wall time of open(), from the call to its completion
     */
    public record IndexOpen(boolean recover, boolean fromDisk, int chunks, long records, long bytesRead,
                            long openNanos) { }

    /**
     * A finished run.
     *
     * @param report         the run report
     * @param index          how the index opened
     * @param durableCommits commits made durable before they became visible (durable mode)
     * @param shutdownError  null when the shutdown made everything durable, else one line saying what failed
     */
    public record Result(RunReport report, IndexOpen index, long durableCommits, String shutdownError) { }

    /** The index device cannot be used (one line): another ring's index, a failed read, no answer. */
    public static final class IndexUnusable extends Exception {
        private static final long serialVersionUID = 1L;

        public IndexUnusable(final String message) {
            super(message);
        }
    }

    /** Native memory a run needs: L1 pool, staging, engine KV, the index buffer, with 64 MiB to spare. */
    public static long memoryBytes(final RunSpec spec) {
        final CoreConfig c = spec.core();
        return c.l1PoolBytes() + c.stagingPoolBytes() + WorkloadDriver.gpuBytes(spec.workload(), c.slotBytes())
            + indexBufferBytes(c) + (64L << 20);
    }

    /** The index device's staging buffer, which the core allocates from native memory when the index opens. */
    public static long indexBufferBytes(final CoreConfig config) {
        return Math.min(KvServer.INDEX_BUFFER_BYTES, indexDeviceBytes(config));
    }

    /** Bytes the index device must hold for a config (a multiple of 4096). */
    public static long indexDeviceBytes(final CoreConfig config) {
        return KvServer.indexLayout(config).deviceBytes();
    }

    /**
     * @param device      the L2 device, at least {@code l2Bytes}
     * @param indexDevice the index device, at least {@link #indexDeviceBytes}, a different file
     * @param recover     recover the index from {@code indexDevice} rather than format a fresh one
     */
    public RealRun(final RunSpec spec, final long seed, final PolledDevice device, final PolledDevice indexDevice,
                   final NativeMemory memory, final boolean recover) {
        if (indexDevice.capacityBytes() < indexDeviceBytes(spec.core())) {
            throw new IllegalArgumentException("index device of " + indexDevice.capacityBytes() + " B, the index needs "
                + indexDeviceBytes(spec.core()) + " B");
        }
        this.spec = spec;
        this.seed = seed;
        this.device = device;
        this.indexDevice = indexDevice;
        this.memory = memory;
        this.recover = recover;
    }

    /**
     * Opens the index, then runs the workload to the end or until {@code timeoutNs} of wall time; extra sinks (a
     * journal) are built from the loop's clock and see every event up to the end of the workload. {@code opened} is
     * told how the index opened before the workload starts.
     *
     * @throws IndexUnusable when the index device cannot be used; nothing has run then
     */
    public Result run(final Function<RealLoop, List<EventSink>> extraSinks, final long timeoutNs,
                      final Consumer<IndexOpen> opened) throws IndexUnusable {
        final FanOutSink sink = new FanOutSink();
        final KvServer[] server = new KvServer[1];
        final RealLoop loop = RealLoop.over(new DevicePair(device, indexDevice), c -> server[0].onIoComplete(c));
        // Latencies are measured on the live wall clock: a step's own work (copies, stamping) takes real time.
        final RunMetrics metrics = new RunMetrics(System::nanoTime);
        final EventDigest digest = new EventDigest();
        server[0] = new KvServer(spec.core(), memory, device, indexDevice, sink);
        final InvariantChecker checker = InvariantChecker.standard(spec.core(), loop,
            () -> server[0].engine().l1().entries().size(), () -> server[0].engine().residentBytes(),
            spec.livenessBoundNs());
        final CoreEvent.IndexOpened[] openedEvent = new CoreEvent.IndexOpened[1];
        sink.add(checker).add(metrics).add(digest.sink(loop)).add(e -> {
            if (e instanceof CoreEvent.IndexOpened o) {
                openedEvent[0] = o;
            }
        });
        for (final EventSink extra : extraSinks.apply(loop)) {
            sink.add(extra);
        }
        final RunRecorder recorder = new RunRecorder(checker);
        String violation = null;
        String shutdownError = null;
        IndexOpen index = null;
        long startNs = System.nanoTime();
        try {
            index = open(server[0], loop, timeoutNs, openedEvent);
            opened.accept(index);
            final KvClient client = new KvClient(spec.core(), memory, server[0], sink, 1L << 50);
            final MemoryRegion gpu = memory.allocate("gpu", WorkloadDriver.gpuBytes(spec.workload(),
                spec.core().slotBytes()));
            if (device instanceof IoUringDevice uring) {
                uring.registerBuffers(memory.liveSegments());
            }
            final WorkloadDriver driver = new WorkloadDriver(spec.workload(), new WorkloadDriver.Wiring(loop,
                Runnable::run, loop, server[0], client, memory, gpu, new SeededEntropy(seed).child("workload"), sink,
                recorder));
            startNs = System.nanoTime();
            recorder.origin(startNs);
            driver.start();
            final RealLoop.Outcome outcome = loop.runFor(recorder::done, timeoutNs);
            if (outcome == RealLoop.Outcome.DEADLINE) {
                checker.report(Invariant.LIVENESS, "the workload did not finish within " + timeoutNs / 1e9 + " s");
            }
            checker.atEnd();
            shutdownError = shutDown(server[0], loop, timeoutNs);
        } catch (final InvariantViolation v) {
            violation = v.getMessage();
        }
        final long end = recorder.done() ? recorder.finishedNs() : System.nanoTime();
        final RunReport report = recorder.report(spec.scenario(), "real", seed, digest.eventCount(), end - startNs,
            digest.finish(), violation, metrics, new RunRecorder.Extras(0, 0, server[0].engine().writeErrors()));
        return new Result(report, index, server[0].engine().durableCommits(), shutdownError);
    }

    /** Opens the index on the loop and waits for it; the wall time is measured around the whole open. */
    private IndexOpen open(final KvServer server, final RealLoop loop, final long timeoutNs,
                           final CoreEvent.IndexOpened[] openedEvent) throws IndexUnusable {
        final String[] error = new String[1];
        final boolean[] done = new boolean[1];
        final long t0 = System.nanoTime();
        server.open(recover, e -> {
            error[0] = e;
            done[0] = true;
        });
        final RealLoop.Outcome outcome = loop.runFor(() -> done[0], timeoutNs);
        final long openNanos = System.nanoTime() - t0;
        if (outcome == RealLoop.Outcome.DEADLINE) {
            throw new IndexUnusable("the index device did not open within " + timeoutNs / 1e9 + " s");
        }
        if (error[0] != null) {
            throw new IndexUnusable(error[0]);
        }
        final CoreEvent.IndexOpened o = openedEvent[0];
        if (o == null) {
            throw new IllegalStateException("the index opened without an IndexOpened event");
        }
        return new IndexOpen(recover, o.recoveredFromDisk(), o.recovered(), o.records(), o.bytesRead(), openNanos);
    }

    /**
     * Makes what the run wrote durable through the core ({@link KvServer#shutdown}): a FLUSH of the data device once
     * no write is pending, then every index record written and the index device flushed. Returns null, or what failed.
     */
    private static String shutDown(final KvServer server, final RealLoop loop, final long timeoutNs) {
        final String[] result = new String[1];
        final boolean[] done = new boolean[1];
        server.shutdown(error -> {
            result[0] = error;
            done[0] = true;
        });
        if (loop.runFor(() -> done[0], timeoutNs) != RealLoop.Outcome.STOPPED) {
            return "the shutdown (data flush, index log) did not complete within " + timeoutNs / 1e9 + " s";
        }
        return result[0];
    }
}
