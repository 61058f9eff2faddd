package dev.kvtier.realio.run;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.harness.check.Invariant;
import dev.kvtier.harness.check.InvariantChecker;
import dev.kvtier.harness.check.InvariantViolation;
import dev.kvtier.harness.check.ProvenanceChecker;
import dev.kvtier.harness.entropy.SeedStream;
import dev.kvtier.harness.entropy.SeededEntropy;
import dev.kvtier.harness.metrics.RequestTokens;
import dev.kvtier.harness.metrics.RunMetrics;
import dev.kvtier.harness.run.FanOutSink;
import dev.kvtier.harness.run.RunMode;
import dev.kvtier.harness.run.RunRecorder;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.harness.run.RunSpec;
import dev.kvtier.harness.workload.WorkloadDriver;
import dev.kvtier.realio.device.IoUringDevice;
import dev.kvtier.realio.ffi.Kernel;
import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.loop.CallOutcome;
import dev.kvtier.realio.loop.RealLoop;
import dev.kvtier.realio.loop.RealTransport;
import dev.kvtier.realio.memory.ByteWork;
import dev.kvtier.realio.memory.NativeMemory;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The real-I/O composition root: the same core, workload driver, checkers and metrics as the simulator, on the
 * wall-clock loop, over a real L2 device and a real device for the crash-safe index (io_uring or FileChannel,
 * O_DIRECT), and native memory. Every stored slot is filled with its key's seeded pattern and every loaded slot is
 * checked byte for byte; every invariant checker runs as in virtual time. The L1 pool, staging and the engine KV
 * region are registered with the data device's io_uring as fixed buffers.
 *
 * <p>{@link #open} allocates the native memory, opens the devices over it and wires the core to them; {@link #run}
 * first opens the index ({@link KvServer#open}): formats a fresh one, or with {@code recover} rebuilds it from the
 * index device, so that a run after a restart finds the keys an earlier run committed and loads them (every loaded
 * byte still checked: a wrong byte is invariant 12). Then the workload runs, and the run shuts down durably through
 * the core ({@link KvServer#shutdown}, journaled like any input): a FLUSH of the data device, then every index record
 * written and flushed, so a later {@code --recover} run finds every key this one committed even after a power loss.
 * {@link #close} releases the memory and the devices.
 */
public final class RealRun implements AutoCloseable {
    private final RunSpec spec;
    private final long seed;
    private final RealTarget target;
    private final PrintStream log;
    private final RealDevices opened;
    private final DevicePair devices;
    private final NativeMemory memory;
    private final FanOutSink sink = new FanOutSink();
    private final OpenedEvent openedEvent = new OpenedEvent();
    private final KvServer server;
    private final DiskMeter disk;
    private final RealLoop loop;
    private final RealTransport transport;
    private final InvariantChecker checker;
    private final RunRecorder recorder;

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
                            long openNanos) {

        /** One line: how the index at {@code indexPath} opened. */
        public String describe(final Path indexPath) {
            if (!recover) {
                return String.format(Locale.ROOT, "index %s formatted in %.1f ms", indexPath, openNanos / 1e6);
            }
            return String.format(Locale.ROOT, "index %s %s: %d chunks, %d log records, %d B read, in %.1f ms",
                indexPath, fromDisk ? "recovered" : "held no checkpoint (started empty)", chunks, records, bytesRead,
                openNanos / 1e6);
        }
    }

    /**
     * A finished run.
     *
     * @param report         the run report
     * @param index          how the index opened
     * @param durableCommits commits made durable before they became visible (durable mode)
     * @param shutdownError  null when the shutdown made everything durable, else one line saying what failed
     * @param requests       where each request's input tokens came from, in the order the requests ended
     * @param loop           the loop thread's time over the window of {@code work}: on a CPU, byte work, the rest
     */
    public record Result(RunReport report, IndexOpen index, long durableCommits, String shutdownError,
                         ByteWork work, DiskMeter.Figures disk, List<RequestTokens> requests, LoopTime loop) {
        public Result {
            requests = List.copyOf(requests);
        }
    }

    /** The last {@link CoreEvent.IndexOpened} the core emitted: what opening the index found. */
    private static final class OpenedEvent implements EventSink {
        private CoreEvent.IndexOpened event;

        @Override
        public void emit(final CoreEvent e) {
            if (e instanceof CoreEvent.IndexOpened o) {
                event = o;
            }
        }
    }

    private RealRun(final RunSpec spec, final long seed, final RealTarget target, final RealDevices opened,
                    final List<EventSink> extraSinks, final PrintStream log) {
        final DevicePair devices = opened.devices();
        if (devices.index().capacityBytes() < indexDeviceBytes(spec.core())) {
            throw new IllegalArgumentException("index device of " + devices.index().capacityBytes()
                + " B, the index needs " + indexDeviceBytes(spec.core()) + " B");
        }
        this.spec = spec;
        this.seed = seed;
        this.target = target;
        this.log = log;
        this.opened = opened;
        this.devices = devices;
        this.memory = opened.memory();
        this.disk = new DiskMeter(devices.data(), System::nanoTime);
        this.server = new KvServer(spec.core(), memory, disk, devices.index(), sink);
        this.loop = RealLoop.over(devices, this::onIoComplete);
        this.transport = new RealTransport(loop);
        final ProvenanceChecker provenance = new ProvenanceChecker(spec.workload().blockTokens(),
            spec.workload().engine().connector().blocksPerKey());
        this.checker = InvariantChecker.standard(spec.core(), loop, () -> server.tieredStore().l1().entries().size(),
            () -> server.tieredStore().residentBytes(), spec.livenessBoundNs(), 0, List.of(provenance));
        // Latencies are measured on the live wall clock: a step's own work (copies, stamping) takes real time.
        this.recorder = new RunRecorder(checker, new RunMetrics(System::nanoTime), loop, provenance);
        recorder.ttftBound(spec.ttftBoundNs(), 0);
        recorder.observe(sink).add(openedEvent);
        for (final EventSink extra : extraSinks) {
            sink.add(extra);
        }
    }

    /**
     * Opens the devices of {@code target} and the native memory a run of {@code spec} needs, and wires a core to them;
     * {@code extraSinks} (a journal) see every event after the run's own checks, stamped by {@link #eventClock}.
     * Progress goes to {@code log}, one line a step.
     *
     * @throws BadDevice when a device cannot be opened or used; nothing is left open then
     */
    public static RealRun open(final RunSpec spec, final long seed, final RealTarget target,
                               final List<EventSink> extraSinks, final PrintStream log) throws BadDevice {
        return open(LibcKernel.create(), spec, seed, target, extraSinks, log);
    }

    /** As above, with the system calls of the claims and the devices made through {@code kernel}. */
    public static RealRun open(final Kernel kernel, final RunSpec spec, final long seed, final RealTarget target,
                               final List<EventSink> extraSinks, final PrintStream log) throws BadDevice {
        return open(kernel, spec, seed, target, extraSinks, log, DeviceTap.NONE);
    }

    /**
     * As above, with {@code tap} between the core and each opened device (a recording for crash images). The data
     * device's fixed buffers are registered only when the tap leaves it as opened.
     */
    public static RealRun open(final Kernel kernel, final RunSpec spec, final long seed, final RealTarget target,
                               final List<EventSink> extraSinks, final PrintStream log,
                               final DeviceTap tap) throws BadDevice {
        final RealDevices opened = RealDevices.open(kernel, spec.core(), memoryBytes(spec), target, log, tap);
        try {
            return new RealRun(spec, seed, target, opened, extraSinks, log);
        } catch (final RuntimeException | Error e) {
            opened.close();
            throw e;
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

    /** The wall-clock loop's clock, which stamps every event (a journal written beside the run needs it). */
    public Clock eventClock() {
        return loop;
    }

    /**
     * Opens the index, says how on the log, then runs the workload to the end or until the target's timeout, and
     * shuts down durably.
     *
     * @throws BadDevice when the index device cannot be used; no workload has run then
     */
    public Result run() throws BadDevice {
        String violation = null;
        String shutdownError = null;
        IndexOpen index = null;
        long startNs = System.nanoTime();
        ByteWork before = memory.work();
        long cpuBefore = LoopTime.threadCpuNs();
        try {
            index = openIndex();
            log.println(index.describe(target.indexPath()));
            final KvClient client = new KvClient(spec.core(), memory, server, transport, sink, 1L << 50);
            final MemoryRegion gpu = memory.allocate("gpu", WorkloadDriver.gpuBytes(spec.workload(),
                spec.core().slotBytes()));
            if (devices.data() instanceof IoUringDevice uring) {
                uring.registerBuffers(memory.liveSegments());
            }
            // The engine's time is the loop's: the wall clock read when the running task began. A step's own work
            // (staging copies) still takes real time, as the next task starts after it; and what the engine schedules
            // "now" keeps its place behind and ahead of what the same task posted (a store the client sends after a
            // request's release runs after the step's output, as it does in virtual time). The live wall clock here
            // put the output, stamped after the copies, behind that store: a step that ended a long prompt then
            // waited for the server's handling of the batch sent with its release, which virtual time does not.
            final WorkloadDriver driver = new WorkloadDriver(spec.workload(), new WorkloadDriver.Wiring(loop,
                loop, transport, server, client, memory, gpu,
                new SeededEntropy(seed).child(SeedStream.WORKLOAD),
                sink, recorder));
            startNs = System.nanoTime();
            before = memory.work();
            cpuBefore = LoopTime.threadCpuNs();
            recorder.origin(startNs);
            driver.start();
            final RealLoop.Outcome outcome = loop.runFor(recorder::done, target.timeoutNs());
            if (outcome == RealLoop.Outcome.DEADLINE) {
                checker.report(Invariant.LIVENESS, "the workload did not finish within " + target.timeoutNs() / 1e9
                    + " s");
            }
            checker.atEnd();
            shutdownError = shutDown();
        } catch (final InvariantViolation v) {
            violation = v.getMessage();
        }
        final long cpuAfter = LoopTime.threadCpuNs();
        final long windowNs = System.nanoTime() - startNs;
        final ByteWork work = memory.work().minus(before);
        final long end = recorder.done() ? recorder.finishedNs() : System.nanoTime();
        final RunReport report = recorder.report(spec.scenario(), RunMode.REAL, seed, end - startNs, violation,
            new RunRecorder.Extras(transport.busyNs(), 0, server.tieredStore().writeErrors()));
        final LoopTime loopTime = new LoopTime(windowNs, cpuBefore < 0 || cpuAfter < 0 ? -1 : cpuAfter - cpuBefore,
            work.totalNs(), report.events());
        return new Result(report, index, server.tieredStore().durableCommits(), shutdownError, work, disk.figures(),
            recorder.requestTokens(), loopTime);
    }

    /** A device completion: a server input, timed as the server thread's work. */
    private void onIoComplete(final IoCompletion completion) {
        disk.completed(completion);
        transport.serve(() -> server.onIoComplete(completion));
    }

    /** Opens the index on the loop and waits for it; the wall time is measured around the whole open. */
    private IndexOpen openIndex() throws BadDevice {
        final CallOutcome opened = new CallOutcome();
        final long t0 = System.nanoTime();
        server.open(target.recover(), opened);
        final RealLoop.Outcome outcome = loop.runFor(opened::done, target.timeoutNs());
        final long openNanos = System.nanoTime() - t0;
        if (outcome == RealLoop.Outcome.DEADLINE) {
            throw unusableIndex("the index device did not open within " + target.timeoutNs() / 1e9 + " s");
        }
        if (opened.error() != null) {
            throw unusableIndex(opened.error());
        }
        final CoreEvent.IndexOpened o = openedEvent.event;
        if (o == null) {
            throw new IllegalStateException("the index opened without an IndexOpened event");
        }
        return new IndexOpen(target.recover(), o.recoveredFromDisk(), o.recovered(), o.records(), o.bytesRead(),
            openNanos);
    }

    private BadDevice unusableIndex(final String why) {
        return new BadDevice("index device " + target.indexPath() + ": " + why);
    }

    /**
     * Makes what the run wrote durable through the core ({@link KvServer#shutdown}): a FLUSH of the data device once
     * no write is pending, then every index record written and the index device flushed. Returns null, or what failed.
     */
    private String shutDown() {
        final CallOutcome shutdown = new CallOutcome();
        server.shutdown(shutdown);
        if (loop.runFor(shutdown::done, target.timeoutNs()) != RealLoop.Outcome.STOPPED) {
            return "the shutdown (data flush, index log) did not complete within " + target.timeoutNs() / 1e9 + " s";
        }
        return shutdown.error();
    }

    /** Closes the index and the data device, then releases the native memory they moved bytes of. */
    @Override
    public void close() {
        opened.close();
    }
}
