package dev.kvtier.sim.run;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.harness.check.CrashChecker;
import dev.kvtier.harness.check.EpochChecker;
import dev.kvtier.harness.check.Invariant;
import dev.kvtier.harness.check.InvariantChecker;
import dev.kvtier.harness.check.InvariantViolation;
import dev.kvtier.harness.check.ProvenanceChecker;
import dev.kvtier.harness.check.RecoveryChecker;
import dev.kvtier.harness.entropy.SeedStream;
import dev.kvtier.harness.entropy.SeededEntropy;
import dev.kvtier.harness.metrics.RequestTokens;
import dev.kvtier.harness.metrics.RunMetrics;
import dev.kvtier.harness.probe.ProbeCatalogue;
import dev.kvtier.harness.probe.ProbeRecorder;
import dev.kvtier.harness.run.FanOutSink;
import dev.kvtier.harness.run.RunMode;
import dev.kvtier.harness.run.RunRecorder;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.harness.run.RunSpec;
import dev.kvtier.harness.workload.WorkloadDriver;
import dev.kvtier.sim.device.CrashOutcome;
import dev.kvtier.sim.device.DiskCache;
import dev.kvtier.sim.device.SimDevice;
import dev.kvtier.sim.device.SimMetaDevice;
import dev.kvtier.sim.host.HostCostModel;
import dev.kvtier.sim.loop.EngineWorker;
import dev.kvtier.sim.loop.EventClock;
import dev.kvtier.sim.loop.EventLoop;
import dev.kvtier.sim.loop.ServerThread;
import dev.kvtier.sim.loop.SimTransport;
import dev.kvtier.sim.memory.ProvenanceMemory;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The virtual run's composition root: wires one core to a simulated data device, a simulated index device and memory
 * and a host cost model (all as the {@link SimModel} says), and to the run's checker, metrics and event digest
 * ({@link RunRecorder}, shared with the real root), drives the workload in virtual time, and reports. One
 * {@link RunSpec}, one model and one seed give one run, bit for bit: nothing here reads the wall clock, starts a
 * thread or draws unseeded randomness, and every collection whose order matters is ordered.
 *
 * <p>Every seeded stream of the run is a child of one root entropy ({@link SeedStream} names them). When the power
 * fails is the {@link CrashSchedule}'s to say; what a crash makes of each device's unflushed pages is drawn from the
 * {@link CrashStreams}. At a crash ({@link PowerLoss}) the core, its client and the workload's requests in flight
 * vanish with every scheduled loop event; the devices lose or tear what was not durable; a new core recovers its
 * index from the index device, invariant 15 is checked, and the workload starts again from the phase it was in.
 * After the crash that follows the final shutdown ({@code faults.crashAfterShutdown}) a new core recovers,
 * invariant 15 is checked (after a clean shutdown every committed key must be in the recovered index, in either
 * commit mode), and the new core shuts down in turn; the workload does not start again.
 * A restart that cannot open its index because the injected full index disk refuses its first checkpoint ends the run
 * there, without a violation ({@link #stoppedEarly}): the core rightly takes no input without a durable checkpoint.
 * The coverage probes that only the simulator can see (faults injected, pages a crash tore or garbled) are reported
 * to the run's recorder as facts.
 */
public final class SimRun {
    /** The engine KV region's name; copies out of it are charged at staging bandwidth. */
    public static final String GPU_REGION = "gpu";
    /** Request ids of the workload's life after crash n start at {@code 1 + n * this}. */
    private static final long REQUEST_IDS_PER_LIFE = 1L << 32;

    private final RunSpec spec;
    private final long seed;
    private final EventLoop loop;
    private final ServerThread serverThread;
    private final EventClock eventClock;
    private final EngineWorker worker;
    private final SimTransport transport;
    private final ProvenanceMemory memory = new ProvenanceMemory();
    private final FanOutSink sink = new FanOutSink();
    private final HostCostModel costs;
    private final SimDevice device;
    private final SimMetaDevice indexDevice;
    private final CrashChecker crashChecker;
    private final RecoveryChecker recovery = new RecoveryChecker();
    private final ProvenanceChecker provenance;
    private final InvariantChecker checker;
    private final RunRecorder recorder;
    private final SeededEntropy root;
    private final CrashSchedule crashes;
    private final CrashStreams crashStreams;
    private KvServer server;
    private WorkloadDriver driver;
    private CrashOutcome dataCrash;
    private CrashOutcome indexCrash;
    private String openError;
    private String stoppedFull;
    private String shutdownError;

    public SimRun(final RunSpec spec, final SimModel model, final long seed, final List<EventSink> extraSinks) {
        this.spec = spec;
        this.seed = seed;
        this.loop = new EventLoop(model.maxEvents());
        this.serverThread = new ServerThread(loop);
        this.worker = model.host().engineOnServerThread() ? EngineWorker.onServerThread(loop, serverThread)
            : EngineWorker.own(loop);
        this.transport = new SimTransport(loop, serverThread, worker, spec.workload().engine().rpcOneWayNs());
        this.costs = new HostCostModel(model.host(), serverThread, worker, GPU_REGION);
        memory.setListener(costs);
        this.root = new SeededEntropy(seed);
        final DiskCache oneDisk = new DiskCache(model.device());
        this.device = new SimDevice(model.device(), spec.core().l2Bytes(), loop, serverThread,
            c -> serverThread.submit(() -> server.onIoComplete(c)), memory, model.faults(),
            root.child(SeedStream.FAULTS), oneDisk);
        this.indexDevice = new SimMetaDevice(model.device(), KvServer.indexLayout(spec.core()).deviceBytes(), loop,
            serverThread, c -> serverThread.submit(() -> server.onIoComplete(c)), memory, model.faults(),
            root.child(SeedStream.INDEX_FAULTS), oneDisk);
        if (model.reorder()) {
            device.reorder(root.child(SeedStream.REORDER));
            indexDevice.reorder(root.child(SeedStream.INDEX_REORDER));
        }
        // Flipped bytes and lost writes on the index media lie outside the durability claim.
        final BooleanSupplier indexMediaFaulted = () -> indexDevice.injectedFlips()
            + indexDevice.injectedLostWrites() > 0;
        this.crashChecker = new CrashChecker(spec.core().commitMode() == CommitMode.DURABLE, this::faultedByDevice,
            indexMediaFaulted);
        this.provenance = new ProvenanceChecker(spec.workload().blockTokens(),
            spec.workload().engine().connector().blocksPerKey());
        this.eventClock = new EventClock(serverThread);
        this.checker = InvariantChecker.standard(spec.core(), eventClock,
            () -> server.tieredStore().l1().entries().size(), () -> server.tieredStore().residentBytes(),
            spec.livenessBoundNs(), model.faults().windowed() ? model.faults().untilNs() : 0,
            List.of(crashChecker, provenance, new EpochChecker(indexMediaFaulted), recovery));
        this.recorder = new RunRecorder(checker, new RunMetrics(eventClock), eventClock, provenance);
        recorder.ttftBound(spec.ttftBoundNs(), model.faults().windowed() ? model.faults().untilNs() : 0);
        this.server = newServer();
        this.crashes = new CrashSchedule(model.faults(), root);
        if (!crashes.mayCrash()) {
            crashChecker.neverCrashes();
        }
        this.crashStreams = new CrashStreams(root);
        sink.add(crashes.sink(recorder::done));
        sink.add(costs);
        recorder.observe(sink);
        for (final EventSink extra : extraSinks) {
            sink.add(extra);
        }
    }

    private KvServer newServer() {
        return new KvServer(spec.core(), memory, device, indexDevice, sink);
    }

    /** Runs to the end (or the first violation) and reports. */
    public RunReport run() {
        String violation = null;
        try {
            serverThread.submit(() -> server.open(false, error -> startWorkload(error, 0, 1)));
            runLoop();
            if (openError != null) {
                violation = "the index did not open: " + openError;
            } else {
                if (!recorder.done() && stoppedFull == null) {
                    checker.report(Invariant.LIVENESS, "the workload did not finish: no event left at "
                        + loop.nowNs() + " ns");
                }
                checker.atEnd();
            }
        } catch (final InvariantViolation v) {
            violation = v.getMessage();
        } catch (final EventLoop.LoopBudgetExceeded e) {
            violation = "invariant 16 (LIVENESS): " + e.getMessage();
        }
        return report(violation);
    }

    /** Runs the loop; at a power loss, crashes the devices, restarts a core on them and goes on. */
    private void runLoop() {
        while (true) {
            try {
                loop.run();
                return;
            } catch (final PowerLoss p) {
                restart();
            }
        }
    }

    private void restart() {
        final int phase = Math.max(0, driver == null ? 0 : driver.phase());
        final boolean afterShutdown = crashes.takeAfterShutdown();
        loop.dropAll();
        serverThread.crash();
        worker.crash();
        dataCrash = device.crash(crashStreams.data(crashChecker.crashes()));
        indexCrash = indexDevice.crash(crashStreams.index(crashChecker.crashes()));
        final ProbeRecorder probes = recorder.probes();
        probes.fact(ProbeCatalogue.CRASH_TORN_DATA, dataCrash.pagesTorn());
        probes.fact(ProbeCatalogue.CRASH_TORN_INDEX, indexCrash.pagesTorn());
        probes.fact(ProbeCatalogue.CRASH_GARBLED_INDEX, indexCrash.pagesGarbled());
        final RecoveryScan scan = RecoveryScan.of(KvServer.indexLayout(spec.core()), spec.core().slotBytes(),
            indexDevice::durableBytes);
        probes.fact(ProbeCatalogue.INDEX_LATER_AT_END, scan.laterAtEnd() ? 1 : 0);
        probes.fact(ProbeCatalogue.INDEX_STALE_AT_END, scan.staleAtEnd() ? 1 : 0);
        recovery.expect(scan.records(), scan.laterAtEnd());
        crashChecker.crashed();
        checker.restarted();
        server = newServer();
        final long firstRequest = 1 + crashChecker.crashes() * REQUEST_IDS_PER_LIFE;
        serverThread.submit(() -> server.open(true, error -> {
            if (error != null && indexDevice.injectedMetaFull() > 0) {
                // An operating condition, not a bug: the restarted core cannot make its opening checkpoint durable
                // on a full index disk, so it takes no input (and says so); the run ends here.
                stoppedFull = error;
                return;
            }
            if (error == null) {
                crashChecker.recovered(checker.context(), server.directory()::isCommitted);
            }
            if (afterShutdown) {
                openError = error;
                if (error == null) {
                    server.shutdown(e -> shutdownError = e);
                }
                return;
            }
            startWorkload(error, phase, firstRequest);
        }));
    }

    /** The final shutdown completed: with {@code crashAfterShutdown}, the power fails now (once). */
    private void shutDown(final String error) {
        shutdownError = error;
        crashes.shutdownCompleted();
    }

    private void startWorkload(final String error, final int phase, final long firstRequestId) {
        if (error != null) {
            openError = error;
            return;
        }
        final KvClient client = new KvClient(spec.core(), memory, server, transport, sink,
            (1L << 50) + crashChecker.crashes() * (1L << 44));
        final MemoryRegion gpu = memory.allocate(GPU_REGION, WorkloadDriver.gpuBytes(spec.workload(),
            spec.core().slotBytes()));
        final WorkloadDriver previous = driver;
        driver = new WorkloadDriver(spec.workload(), new WorkloadDriver.Wiring(loop, worker, transport, server,
            client, memory, gpu, root.child(SeedStream.WORKLOAD), sink, observer()));
        if (previous != null) {
            driver.continueFrom(previous);
        }
        driver.start(phase, firstRequestId);
    }

    /** The recorder, except that wrong bytes after a crash break invariant 15 rather than 12. */
    private WorkloadDriver.Observer observer() {
        return new WorkloadDriver.Observer() {
            @Override
            public void wrongBytes(final long requestId, final int block, final long offset,
                                   final dev.kvtier.core.value.PrefixKey key) {
                if (crashChecker.afterCrash()) {
                    checker.report(Invariant.CRASH, "after crash " + crashChecker.crashes() + ", request "
                        + requestId + " block " + block + " (key " + key + ") loaded bytes that are not its key's,"
                        + " first at offset " + offset);
                }
                recorder.wrongBytes(requestId, block, offset, key);
            }

            @Override
            public void phaseEnded(final int index, final String name, final long startNs, final long endNs) {
                recorder.phaseEnded(index, name, startNs, endNs);
            }

            @Override
            public void requestDone(final dev.kvtier.harness.workload.RequestTiming t) {
                recorder.requestDone(t);
            }

            @Override
            public void loadSent(final long requestId, final long loadId) {
                recorder.loadSent(requestId, loadId);
            }

            @Override
            public void finished(final long timeNs) {
                recorder.finished(timeNs);
                // The run ends as a real one does: durably (a crash after this loses nothing committed).
                serverThread.submit(() -> server.shutdown(SimRun.this::shutDown));
            }
        };
    }

    /** Whether the data device corrupted or misdirected data over {@code ref}'s slots (outside the claims). */
    private boolean faultedByDevice(final AllocationRef ref) {
        final long from = ref.fileOffset(spec.core().slotBytes());
        return device.faultedOver(from, from + ref.lengthBytes(spec.core().slotBytes()));
    }

    private RunReport report(final String violation) {
        final ProbeRecorder probes = recorder.probes();
        probes.fact(ProbeCatalogue.FAULT_SPIKE, device.injectedSpikes());
        probes.fact(ProbeCatalogue.FAULT_CORRUPTION, device.injectedCorruptions());
        probes.fact(ProbeCatalogue.FAULT_MISDIRECT, device.injectedMisdirects());
        probes.fact(ProbeCatalogue.FAULT_SHORT_WRITE, device.injectedShortWrites());
        probes.fact(ProbeCatalogue.FAULT_INDEX_FLIP, indexDevice.injectedFlips());
        probes.fact(ProbeCatalogue.FAULT_INDEX_LOST, indexDevice.injectedLostWrites());
        probes.fact(ProbeCatalogue.LOAD_REWRITTEN, driver == null ? 0 : driver.rewrittenLoaded());
        probes.fact(ProbeCatalogue.LOAD_UNCOVERED, driver == null ? 0 : driver.uncoveredLoads());
        probes.fact(ProbeCatalogue.IO_REORDERED, device.reorderedCompletions() + indexDevice.reorderedCompletions());
        return recorder.report(spec.scenario(), RunMode.VIRTUAL, seed, loop.nowNs(), violation,
            new RunRecorder.Extras(serverThread.busyTotalNs(), device.injectedErrors(),
                server.tieredStore().writeErrors()));
    }

    /**
     * After {@link #run}: hands the data device's block storage to this thread's reserve, so the next run in this JVM
     * (an exploration's next seed) reuses it instead of allocating it ({@link SimDevice#recycle}); that run sees
     * none of this one's content. This run's device images are empty afterwards.
     */
    public void recycle() {
        device.recycle();
    }

    /** The simulated data device, for tests and reports. */
    public SimDevice device() {
        return device;
    }

    /** The simulated index device. */
    public SimMetaDevice indexDevice() {
        return indexDevice;
    }

    /** The current core (after a crash, the restarted one). */
    public KvServer kvServer() {
        return server;
    }

    /** Where each request's input tokens came from (after {@link #run}), in the order the requests ended. */
    public List<RequestTokens> requestTokens() {
        return recorder.requestTokens();
    }

    /** Invariant 15's checker: crashes seen and durable commits checked after restarts. */
    public CrashChecker crashChecker() {
        return crashChecker;
    }

    /** What the crash did to the data device's unflushed writes (null without a crash). */
    public CrashOutcome dataCrash() {
        return dataCrash;
    }

    /** What the crash did to the index device's unflushed writes (null without a crash). */
    public CrashOutcome indexCrash() {
        return indexCrash;
    }

    /**
     * Why the run stopped early without a violation, or null: after a crash the index disk was full, so the restarted
     * core could not open its index.
     */
    public String stoppedEarly() {
        return stoppedFull == null ? null : "after crash " + crashChecker.crashes() + " the index disk was full and "
            + "the restarted core could not open its index: " + stoppedFull;
    }

    /** Null when the run's final shutdown made everything durable, else what failed (a full index disk, ...). */
    public String shutdownError() {
        return shutdownError;
    }

    /** Core events emitted (across every life of the core). */
    public long coreEvents() {
        return crashes.events();
    }

    /** The clock that stamps every event (the server thread's, never going back): a journal beside a run needs it. */
    public Clock serverClock() {
        return eventClock;
    }

    public long loopEvents() {
        return loop.executed();
    }
}
