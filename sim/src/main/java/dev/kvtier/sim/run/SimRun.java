package dev.kvtier.sim.run;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.journal.codec.EventDigest;
import dev.kvtier.sim.check.Invariant;
import dev.kvtier.sim.check.InvariantChecker;
import dev.kvtier.sim.check.InvariantViolation;
import dev.kvtier.sim.device.SimDevice;
import dev.kvtier.sim.host.HostCostModel;
import dev.kvtier.sim.loop.EventLoop;
import dev.kvtier.sim.loop.SeededEntropy;
import dev.kvtier.sim.loop.ServerThread;
import dev.kvtier.sim.memory.ProvenanceMemory;
import dev.kvtier.sim.metrics.RunMetrics;
import dev.kvtier.sim.workload.WorkloadDriver;
import java.util.List;

/**
 * The simulator's composition root: wires one core to a simulated device and memory, a host cost model, the
 * invariant checker, metrics and the event digest, drives the workload in virtual time, and reports. One spec and
 * one seed give one run, bit for bit: nothing here reads the wall clock, starts a thread or draws unseeded
 * randomness, and every collection whose order matters is ordered.
 */
public final class SimRun {
    /** The engine KV region's name; copies out of it are charged at staging bandwidth. */
    public static final String GPU_REGION = "gpu";

    private final SimSpec spec;
    private final long seed;
    private final EventLoop loop;
    private final ServerThread serverThread;
    private final ProvenanceMemory memory = new ProvenanceMemory();
    private final FanOutSink sink = new FanOutSink();
    private final EventDigest digest = new EventDigest();
    private final RunMetrics metrics;
    private final HostCostModel costs;
    private final KvServer server;
    private final SimDevice device;
    private final InvariantChecker checker;
    private final RunRecorder recorder;

    public SimRun(final SimSpec spec, final long seed, final List<EventSink> extraSinks) {
        this.spec = spec;
        this.seed = seed;
        this.loop = new EventLoop(spec.maxEvents());
        this.serverThread = new ServerThread(loop);
        this.costs = new HostCostModel(spec.host(), serverThread, GPU_REGION);
        this.metrics = new RunMetrics(serverThread);
        memory.setListener(costs);
        this.device = new SimDevice(spec.device(), spec.core().l2Bytes(), loop, serverThread,
            c -> serverThread.submit(() -> server().onIoComplete(c)), spec.faults(),
            new SeededEntropy(seed).child("faults"));
        this.server = new KvServer(spec.core(), memory, device, sink);
        this.checker = InvariantChecker.standard(spec.core(), serverThread,
            () -> server.engine().l1().entries().size(), () -> server.engine().residentBytes(),
            spec.livenessBoundNs(), spec.faults().any() ? spec.faults().untilNs() : 0);
        this.recorder = new RunRecorder(checker);
        sink.add(costs).add(checker).add(metrics).add(digest.sink(serverThread));
        for (final EventSink extra : extraSinks) {
            sink.add(extra);
        }
    }

    private KvServer server() {
        return server;
    }

    /** Runs to the end (or the first violation) and reports. */
    public RunReport run() {
        String violation = null;
        try {
            final KvClient client = new KvClient(spec.core(), memory, server, sink, 1L << 50);
            final MemoryRegion gpu = memory.allocate(GPU_REGION, WorkloadDriver.gpuBytes(spec.workload(),
                spec.core().slotBytes()));
            final WorkloadDriver driver = new WorkloadDriver(spec.workload(), new WorkloadDriver.Wiring(loop,
                serverThread::submit, serverThread, server, client, memory, gpu,
                new SeededEntropy(seed).child("workload"), sink, recorder));
            driver.start();
            loop.run();
            if (!recorder.done()) {
                checker.report(Invariant.LIVENESS, "the workload did not finish: no event left at "
                    + loop.nowNs() + " ns");
            }
            checker.atEnd();
        } catch (final InvariantViolation v) {
            violation = v.getMessage();
        } catch (final EventLoop.LoopBudgetExceeded e) {
            violation = "invariant 16 (LIVENESS): " + e.getMessage();
        }
        return report(violation);
    }

    private RunReport report(final String violation) {
        return recorder.report(spec.scenario(), "virtual", seed, digest.eventCount(), loop.nowNs(), digest.finish(),
            violation, metrics, new RunRecorder.Extras(serverThread.busyTotalNs(), device.injectedErrors(),
                server.engine().writeErrors()));
    }

    /** The simulated device, for tests and reports. */
    public SimDevice device() {
        return device;
    }

    public KvServer kvServer() {
        return server;
    }

    /** The simulated server thread's clock, which stamps every event (a journal written beside a run needs it). */
    public Clock serverClock() {
        return serverThread;
    }

    public long loopEvents() {
        return loop.executed();
    }
}
