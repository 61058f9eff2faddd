package dev.kvtier.cli.real;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.journal.codec.EventDigest;
import dev.kvtier.realio.device.IoUringDevice;
import dev.kvtier.realio.device.PolledDevice;
import dev.kvtier.realio.loop.RealLoop;
import dev.kvtier.realio.memory.NativeMemory;
import dev.kvtier.sim.check.Invariant;
import dev.kvtier.sim.check.InvariantChecker;
import dev.kvtier.sim.check.InvariantViolation;
import dev.kvtier.sim.loop.SeededEntropy;
import dev.kvtier.sim.metrics.RunMetrics;
import dev.kvtier.sim.run.FanOutSink;
import dev.kvtier.sim.run.RunRecorder;
import dev.kvtier.sim.run.RunReport;
import dev.kvtier.sim.run.SimSpec;
import dev.kvtier.sim.workload.WorkloadDriver;
import java.util.List;
import java.util.function.Function;

/**
 * The real-I/O composition root: the same core and workload driver as the simulator, on the wall-clock loop, over
 * a real device (io_uring or FileChannel, O_DIRECT) and native memory. Every stored slot is filled with its key's
 * seeded pattern and every loaded slot is checked byte for byte; every invariant checker runs as in virtual time.
 * The L1 pool, staging and the engine KV region are registered with io_uring as fixed buffers.
 */
public final class RealRun {
    private final SimSpec spec;
    private final long seed;
    private final PolledDevice device;
    private final NativeMemory memory;

    /** Native memory a run needs: L1 pool, staging, engine KV, with 64 MiB to spare. */
    public static long memoryBytes(final SimSpec spec) {
        final CoreConfig c = spec.core();
        return c.l1PoolBytes() + c.stagingPoolBytes() + WorkloadDriver.gpuBytes(spec.workload(), c.slotBytes())
            + (64L << 20);
    }

    public RealRun(final SimSpec spec, final long seed, final PolledDevice device, final NativeMemory memory) {
        this.spec = spec;
        this.seed = seed;
        this.device = device;
        this.memory = memory;
    }

    /**
     * Runs the workload to the end, or until {@code deadlineNs} of wall time; extra sinks (a journal) are built
     * from the loop's clock.
     */
    public RunReport run(final Function<RealLoop, List<EventSink>> extraSinks, final long timeoutNs) {
        final FanOutSink sink = new FanOutSink();
        final KvServer[] server = new KvServer[1];
        final RealLoop loop = RealLoop.over(device, c -> server[0].onIoComplete(c));
        // Latencies are measured on the live wall clock: a step's own work (copies, stamping) takes real time.
        final RunMetrics metrics = new RunMetrics(System::nanoTime);
        final EventDigest digest = new EventDigest();
        server[0] = new KvServer(spec.core(), memory, device, sink);
        final InvariantChecker checker = InvariantChecker.standard(spec.core(), loop,
            () -> server[0].engine().l1().entries().size(), () -> server[0].engine().residentBytes(),
            spec.livenessBoundNs());
        sink.add(checker).add(metrics).add(digest.sink(loop));
        extraSinks.apply(loop).forEach(sink::add);
        final RunRecorder recorder = new RunRecorder(checker);
        String violation = null;
        long startNs = System.nanoTime();
        try {
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
        } catch (final InvariantViolation v) {
            violation = v.getMessage();
        }
        final long end = recorder.done() ? recorder.finishedNs() : System.nanoTime();
        return recorder.report(spec.scenario(), "real", seed, digest.eventCount(), end - startNs, digest.finish(),
            violation, metrics, new RunRecorder.Extras(0, 0, server[0].engine().writeErrors()));
    }
}
