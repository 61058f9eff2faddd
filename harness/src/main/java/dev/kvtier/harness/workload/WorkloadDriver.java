package dev.kvtier.harness.workload;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.client.ServerTransport;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.Entropy;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.port.Scheduler;
import dev.kvtier.core.port.Stamping;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.harness.entropy.SeedStream;
import java.util.Arrays;

/**
 * Drives a {@link WorkloadSpec} through the core: phases one after another, each served by a closed loop of
 * {@code concurrency} clients (a client sends its next request once its last one gave its first token) to one
 * inference engine, the {@link StepEngine}, which calls the store from inside its steps as vLLM's KV connector does
 * (docs/design/ENGINE-MODEL.md). Every loaded slot is checked against its key's content. A phase ends when its last
 * request gave its first token and every save committed; it is then drained (no L2 write pending) before the next
 * starts.
 *
 * <p>A trace workload is an open loop instead (docs/design/TRAFFIC.md): its one phase sends each request of the trace
 * at its arrival time after the phase's start, whether the engine is busy or not. A restarted workload (after a crash)
 * replays the trace from its first request.
 *
 * <p>Works on either loop: the simulator's virtual one or the real wall-clock one. Calls to the server go through the
 * wiring's {@link ServerTransport} (the simulator's queues them on its server thread, behind the server's work);
 * {@code clock} is the engine's time (virtual: the loop's, plus the client-side copies the engine waits for; real:
 * the wall clock).
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

        /** A request ended; {@code t} says when it passed each point of its life. */
        default void requestDone(final RequestTiming t) {}

        /** Load {@code loadId} is sent for request {@code requestId}'s cached prefix (before the server sees it). */
        default void loadSent(final long requestId, final long loadId) {}
    }

    /** The parts a driver is wired to; built by a composition root. */
    public record Wiring(Scheduler loop, Clock clock, ServerTransport transport, KvServer server, KvClient client,
                         Stamping stamping, MemoryRegion gpu, Entropy entropy, EventSink sink, Observer observer) {}

    private final WorkloadSpec spec;
    private final Scheduler loop;
    private final Clock clock;
    private final ServerTransport transport;
    private final KvServer server;
    private final Entropy entropy;
    private final EventSink sink;
    private final Observer observer;
    private final Prompts prompts;
    private final TraceKeys traceKeys;
    private final StepEngine engine;
    private int phase = -1;
    private int remaining;
    private int inSystem;
    private int sequentialNext;
    private int traceNext;
    private long phaseStartNs;
    private long nextRequestId = 1;
    private boolean draining;
    private double[] zipfCdf;

    public WorkloadDriver(final WorkloadSpec spec, final Wiring w) {
        this.spec = spec;
        this.loop = w.loop();
        this.clock = w.clock();
        this.transport = w.transport();
        this.server = w.server();
        this.entropy = w.entropy();
        this.sink = w.sink();
        this.observer = w.observer();
        final long keySeed = SeedStream.KEYS.of(entropy).nextLong();
        this.prompts = spec.isTrace() ? null : new Prompts(spec, SeedStream.TOKENS.of(entropy).nextLong(), keySeed);
        this.traceKeys = spec.isTrace() ? new TraceKeys(spec.trace(), spec.blockTokens(), keySeed) : null;
        final long slotBytes = server.config().slotBytes();
        if (w.gpu().sizeBytes() < gpuBytes(spec, slotBytes)) {
            throw new IllegalArgumentException("engine KV region of " + w.gpu().sizeBytes() + " B is smaller than "
                + gpuBytes(spec, slotBytes) + " B");
        }
        this.engine = new StepEngine(spec, new StepEngine.Parts(loop, clock, transport, server, w.client(),
            w.stamping(), w.gpu(), sink, observer), new EngineEvents());
        engine.firstLoadId(1L << 40);
    }

    /** Bytes of engine KV memory the workload needs: one prompt's blocks per client. */
    public static long gpuBytes(final WorkloadSpec spec, final long slotBytes) {
        return (long) spec.concurrency() * spec.blocksPerPrompt() * slotBytes;
    }

    /** The content tag of a key: what its slot holds (a function of the key only, as real KV is of the prefix). */
    public static long tagOf(final PrefixKey key) {
        return Prompts.mix(key.hi() * 0x9E3779B97F4A7C15L ^ key.lo()) | 1;
    }

    /**
     * Goes on from the driver of the workload's previous life (after a crash): what each allocation's content is
     * ({@link ConnectorSpec#rewriteEvery}), so that a chunk recovered from that life is checked against its bytes.
     */
    public void continueFrom(final WorkloadDriver previous) {
        engine.connector().continueFrom(previous.engine.connector());
    }

    /** Blocks loaded so far whose allocation held a rewritten version of its key's content (checked against it). */
    public long rewrittenLoaded() {
        return engine.connector().rewrittenLoaded();
    }

    /** Loads so far that asked for a chunk stored by a short spec, with a slot no store covered. */
    public long uncoveredLoads() {
        return engine.connector().uncoveredLoads();
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
        engine.firstLoadId((1L << 40) + (firstRequestId - 1) * 4096);
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
        phaseStartNs = clock.nowNs();
        remaining = p.requests();
        inSystem = 0;
        draining = false;
        sequentialNext = 0;
        zipfCdf = p.order() == PhaseSpec.Order.ZIPF ? zipf(spec.prompts(), p.zipfExponent()) : null;
        if (spec.isTrace()) {
            traceNext = 0;
            nextArrival();
            return;
        }
        for (int client = 0; client < spec.concurrency(); client++) {
            send(client, phaseStartNs);
        }
        checkPhaseEnd();
    }

    /** The trace's next request arrives at its time after the phase's start. */
    private void nextArrival() {
        if (traceNext < spec.trace().size()) {
            loop.at(phaseStartNs + spec.trace().arrivalNs(traceNext), this::arrive);
        }
    }

    private void arrive() {
        final int i = traceNext++;
        remaining--;
        inSystem++;
        engine.enqueue(EngineRequest.traced(nextRequestId++, phase, traceKeys.keys(i), spec.trace().inputTokens(i),
            spec.trace().outputTokens(i), spec.blockTokens(), phaseStartNs + spec.trace().arrivalNs(i)));
        nextArrival();
    }

    /** Client {@code client} sends its next request of the phase, if any is left. */
    private void send(final int client, final long atNs) {
        if (remaining == 0) {
            return;
        }
        remaining--;
        inSystem++;
        engine.enqueue(new EngineRequest(nextRequestId++, client, phase, prompts.keys(pickPrompt()),
            spec.inputTokens(), atNs));
    }

    private int pickPrompt() {
        if (zipfCdf == null) {
            return sequentialNext++ % spec.prompts();
        }
        final int i = Arrays.binarySearch(zipfCdf, entropy.nextDouble());
        return Math.min(i >= 0 ? i : -i - 1, spec.prompts() - 1);
    }

    private void checkPhaseEnd() {
        if (draining || remaining > 0 || inSystem > 0 || engine.savesOutstanding() > 0) {
            return;
        }
        draining = true;
        transport.toServer(-1, () -> server.drain(() -> transport.toClient(-1, this::phaseDrained)));
    }

    private void phaseDrained() {
        final long end = clock.nowNs();
        final int ended = phase;
        observer.phaseEnded(ended, phaseName(ended), phaseStartNs, end);
        if (ended + 1 < spec.phases().size()) {
            loop.at(end, () -> startPhase(ended + 1));
        } else {
            observer.finished(end);
        }
    }

    private String phaseName(final int index) {
        return spec.phases().get(index).name();
    }

    /** What the engine says back: a finished request frees its client, committed saves may end the phase. */
    private final class EngineEvents implements StepEngine.Listener {
        @Override
        public void finished(final EngineRequest r, final long atNs) {
            inSystem--;
            observer.requestDone(new RequestTiming(r.id, phaseName(r.phase), r.arrivalNs, r.scheduledNs,
                r.firstTokenNs, atNs, r.outputTokens, new RequestTiming.Tokens(r.inputTokens,
                    (long) r.cached * spec.blockTokens(), r.tokensToCompute)));
            if (r.client >= 0) {
                send(r.client, atNs);
            }
            checkPhaseEnd();
        }

        @Override
        public void saveCommitted(final EngineRequest r) {
            checkPhaseEnd();
        }

        @Override
        public String phaseName(final int index) {
            return WorkloadDriver.this.phaseName(index);
        }
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
