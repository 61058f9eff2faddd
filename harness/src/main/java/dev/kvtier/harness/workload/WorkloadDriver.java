package dev.kvtier.harness.workload;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.client.SaveListener;
import dev.kvtier.core.client.StoreSpec;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.geometry.PrefixKey;
import dev.kvtier.core.l2.AllocationRef;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.Entropy;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.port.Scheduler;
import dev.kvtier.core.port.Stamping;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.store.LoadRange;
import dev.kvtier.core.store.LoadResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Drives a {@link WorkloadSpec} through the core: a closed loop of engine lanes, each request doing lookup, load of
 * the cached prefix (every loaded slot checked against its key's content), allocation, prefill on a shared GPU, and
 * save; phases drained one after another. Works on any loop: the simulator's virtual one or the real wall-clock
 * one. Every call into the core goes through {@code serverInputs} (in virtual time the simulated server thread, so it
 * costs host time and is served in order; on the wall clock a direct call), and {@code serverClock} is the time of the
 * server's work.
 */
public final class WorkloadDriver {
    /** What the driver reports besides events. */
    public interface Observer {
        /** A loaded slot did not hold its key's content. */
        void wrongBytes(long requestId, int block, long mismatchOffset, PrefixKey key);

        /** Phase {@code index} ended (drained) at {@code timeNs}. */
        void phaseEnded(int index, String name, long startNs, long endNs);

        /** The whole workload is done. */
        void finished(long timeNs);
    }

    private final WorkloadSpec spec;
    private final Scheduler loop;
    private final Consumer<Runnable> serverInputs;
    private final Clock serverClock;
    private final KvServer server;
    private final KvClient client;
    private final Stamping stamping;
    private final MemoryRegion gpu;
    private final Entropy entropy;
    private final EventSink sink;
    private final Observer observer;
    private final Prompts prompts;
    private final long slotBytes;
    private final int blocks;
    private int phase = -1;
    private int remaining;
    private int idleLanes;
    private int sequentialNext;
    private long outstandingSaves;
    private long phaseStartNs;
    private long gpuFreeNs;
    private long nextRequestId = 1;
    private long nextLoadId = 1L << 40;
    private boolean draining;
    private double[] zipfCdf;

    private static final class Request {
        final long id;
        final int lane;
        final List<PrefixKey> keys;
        final long arrivalNs;
        List<AllocationRef> claims = List.of();
        int[] claimIndex = new int[0];

        Request(final long id, final int lane, final List<PrefixKey> keys, final long arrivalNs) {
            this.id = id;
            this.lane = lane;
            this.keys = keys;
            this.arrivalNs = arrivalNs;
        }
    }

    /** The parts a driver is wired to; built by a composition root. */
    public record Wiring(Scheduler loop, Consumer<Runnable> serverInputs, Clock serverClock, KvServer server,
                         KvClient client, Stamping stamping, MemoryRegion gpu, Entropy entropy, EventSink sink,
                         Observer observer) {}

    public WorkloadDriver(final WorkloadSpec spec, final Wiring w) {
        this.spec = spec;
        this.loop = w.loop();
        this.serverInputs = w.serverInputs();
        this.serverClock = w.serverClock();
        this.server = w.server();
        this.client = w.client();
        this.stamping = w.stamping();
        this.gpu = w.gpu();
        this.entropy = w.entropy();
        this.sink = w.sink();
        this.observer = w.observer();
        this.slotBytes = server.config().slotBytes();
        this.blocks = spec.blocksPerPrompt();
        this.prompts = new Prompts(spec, entropy.child("tokens").nextLong(), entropy.child("keys").nextLong());
        if (gpu.sizeBytes() < gpuBytes(spec, slotBytes)) {
            throw new IllegalArgumentException("engine KV region of " + gpu.sizeBytes() + " B is smaller than "
                + gpuBytes(spec, slotBytes) + " B");
        }
    }

    /** Bytes of engine KV memory the workload needs: one prompt's blocks per lane. */
    public static long gpuBytes(final WorkloadSpec spec, final long slotBytes) {
        return (long) spec.concurrency() * spec.blocksPerPrompt() * slotBytes;
    }

    /** The content tag of a key: what its slot holds (a function of the key only, as real KV is of the prefix). */
    public static long tagOf(final PrefixKey key) {
        return Prompts.mix(key.hi() * 0x9E3779B97F4A7C15L ^ key.lo()) | 1;
    }

    /** Starts the first phase at the loop's current time. */
    public void start() {
        start(0, 1);
    }

    /**
     * Starts phase {@code phaseIndex} at the loop's current time, numbering requests from {@code firstRequestId} (a
     * restarted workload after a crash goes on from the phase it was in, with ids its first life never used).
     */
    public void start(final int phaseIndex, final long firstRequestId) {
        nextRequestId = firstRequestId;
        nextLoadId = (1L << 40) + (firstRequestId - 1) * 4096;
        loop.post(() -> startPhase(phaseIndex));
    }

    /** The phase being run (-1 before the first). */
    public int phase() {
        return phase;
    }

    /** The next request id this driver would use. */
    public long nextRequestId() {
        return nextRequestId;
    }

    private void startPhase(final int index) {
        phase = index;
        final PhaseSpec p = spec.phases().get(index);
        sink.emit(new CoreEvent.PhaseStarted(p.name()));
        phaseStartNs = loop.nowNs();
        remaining = p.requests();
        idleLanes = 0;
        draining = false;
        sequentialNext = 0;
        zipfCdf = p.order() == PhaseSpec.Order.ZIPF ? zipf(spec.prompts(), p.zipfExponent()) : null;
        for (int lane = 0; lane < spec.concurrency(); lane++) {
            startNext(lane);
        }
    }

    private void startNext(final int lane) {
        if (remaining == 0) {
            idleLanes++;
            checkPhaseEnd();
            return;
        }
        remaining--;
        final Request r = new Request(nextRequestId++, lane, prompts.keys(pickPrompt()), loop.nowNs());
        serverInputs.accept(() -> lookup(r));
    }

    private int pickPrompt() {
        if (zipfCdf == null) {
            return sequentialNext++ % spec.prompts();
        }
        final int i = Arrays.binarySearch(zipfCdf, entropy.nextDouble());
        return Math.min(i >= 0 ? i : -i - 1, spec.prompts() - 1);
    }

    private void lookup(final Request r) {
        final List<AllocationRef> prefix = server.lookup(spec.modelId(), r.keys).prefix();
        sink.emit(new CoreEvent.RequestArrived(r.id, phaseName(), blocks, prefix.size()));
        if (prefix.isEmpty()) {
            afterLoad(r, 0);
            return;
        }
        final List<LoadRange> ranges = new ArrayList<>(prefix.size());
        for (int i = 0; i < prefix.size(); i++) {
            ranges.add(LoadRange.whole(prefix.get(i), slotBytes, blockOffset(r.lane, i)));
        }
        server.load(nextLoadId++, ranges, gpu, res -> loaded(r, prefix.size(), res));
    }

    private void loaded(final Request r, final int cached, final LoadResult res) {
        if (!res.ok()) {
            afterLoad(r, 0);
            return;
        }
        for (int i = 0; i < cached; i++) {
            final PrefixKey key = r.keys.get(i);
            final long bad = stamping.firstMismatch(gpu, blockOffset(r.lane, i), slotBytes, tagOf(key));
            if (bad >= 0) {
                observer.wrongBytes(r.id, i, bad, key);
            }
        }
        afterLoad(r, cached);
    }

    private void afterLoad(final Request r, final int have) {
        final List<AllocationRef> claims = new ArrayList<>();
        final int[] index = new int[blocks - have];
        if (have < blocks) {
            final List<AllocationResult> results = server.allocate(r.id, spec.modelId(),
                r.keys.subList(have, blocks), 1);
            for (int i = 0; i < results.size(); i++) {
                if (results.get(i) instanceof AllocationResult.Claimed c) {
                    index[claims.size()] = have + i;
                    claims.add(c.ref());
                }
            }
        }
        r.claims = claims;
        r.claimIndex = index;
        final long tokens = (long) (blocks - have) * spec.blockTokens() + spec.inputTokens() % spec.blockTokens();
        final long start = Math.max(serverClock.nowNs(), gpuFreeNs);
        gpuFreeNs = start + tokens * spec.prefillNsPerToken() + spec.firstTokenNs();
        loop.at(gpuFreeNs, () -> prefillDone(r));
    }

    private void prefillDone(final Request r) {
        final List<StoreSpec> specs = new ArrayList<>(r.claims.size());
        for (int c = 0; c < r.claims.size(); c++) {
            final int block = r.claimIndex[c];
            stamping.stamp(gpu, blockOffset(r.lane, block), slotBytes, tagOf(r.keys.get(block)));
            specs.add(StoreSpec.of(r.claims.get(c), List.of(blockId(r.lane, block)), slotBytes));
        }
        outstandingSaves++;
        serverInputs.accept(() -> client.save(r.id, specs, gpu, new SaveListener() {
            @Override
            public void released(final long requestId) {
                finish(r);
            }

            @Override
            public void committed(final long requestId, final List<AllocationRef> accepted,
                                  final List<AllocationRef> rejected) {
                outstandingSaves--;
                checkPhaseEnd();
            }
        }));
    }

    private void finish(final Request r) {
        final long now = serverClock.nowNs();
        sink.emit(new CoreEvent.RequestFinished(r.id, phaseName(), now - r.arrivalNs, true));
        loop.at(now, () -> startNext(r.lane));
    }

    private void checkPhaseEnd() {
        if (draining || idleLanes < spec.concurrency() || outstandingSaves > 0) {
            return;
        }
        draining = true;
        serverInputs.accept(() -> server.drain(this::phaseDrained));
    }

    private void phaseDrained() {
        final long end = serverClock.nowNs();
        final int ended = phase;
        observer.phaseEnded(ended, phaseName(), phaseStartNs, end);
        if (ended + 1 < spec.phases().size()) {
            loop.at(end, () -> startPhase(ended + 1));
        } else {
            observer.finished(end);
        }
    }

    private String phaseName() {
        return spec.phases().get(phase).name();
    }

    private int blockId(final int lane, final int block) {
        return lane * blocks + block;
    }

    private long blockOffset(final int lane, final int block) {
        return blockId(lane, block) * slotBytes;
    }

    private static double[] zipf(final int n, final double s) {
        final double[] cdf = new double[n];
        double sum = 0;
        for (int k = 1; k <= n; k++) {
            sum += 1.0 / Math.pow(k, s);
            cdf[k - 1] = sum;
        }
        for (int k = 0; k < n; k++) {
            cdf[k] /= sum;
        }
        return cdf;
    }
}
