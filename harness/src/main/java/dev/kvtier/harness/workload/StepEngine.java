package dev.kvtier.harness.workload;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.client.SaveListener;
import dev.kvtier.core.client.ServerTransport;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.port.Scheduler;
import dev.kvtier.core.port.Stamping;
import dev.kvtier.core.server.KvServer;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.StoreSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The inference engine's step loop (docs/design/ENGINE-MODEL.md), driving the store as vLLM's KV connector does. A
 * step:
 * <ol>
 * <li><b>schedule</b>: one token for each decoding request (in the order they gave their first token), then requests
 * being prefilled, then waiting ones in arrival order, while the step's token budget lasts. A request's first
 * schedule takes its KV blocks (for its prompt and every token it will give) and calls the store
 * <i>synchronously</i>: a lookup, then an allocation of the blocks it will compute. Each call queues on the server
 * thread behind whatever the server is doing, so server work delays the step. A hit is loaded asynchronously: the
 * request sits out until its load ends, then is scheduled with its uncached tokens (at least one);</li>
 * <li><b>forward</b>: the GPU prefills and decodes the scheduled tokens ({@link EngineSpec#stepNs});</li>
 * <li><b>get_finished</b>: loads that ended are noticed; each request whose prefill ended is staged by the client,
 * and the step waits until all of them are (staging copies, and waits for staging room while the server stores
 * earlier batches);</li>
 * <li><b>output</b>: those requests give their first token (their time to first token ends here) and decode from the
 * next step on, unless they give only one; requests whose last token this was end and free their blocks.</li>
 * </ol>
 * With nothing to schedule the engine idles until a load ends or a request arrives. Time is read from
 * {@code clock}: the simulator's engine worker (the loop's time plus the client-side copies charged to the engine) or
 * the real loop's (the wall clock read when the running task began, so that work the engine schedules for "now"
 * keeps its order with what the same task posts). Not thread-safe: everything runs on the loop's thread.
 */
final class StepEngine {
    /** What the engine tells the workload driver. */
    interface Listener {
        /** {@code r} gave its last token at {@code atNs} (its first, if it gives one); its client may send again. */
        void finished(EngineRequest r, long atNs);
        /** The save of {@code r}'s computed blocks was committed (or had nothing to commit). */
        void saveCommitted(EngineRequest r);
        /** The name of phase {@code index}, for notes. */
        String phaseName(int index);
    }

    /** One request scheduled in the current step, with the tokens it prefills there, or one token it decodes. */
    private record Scheduled(EngineRequest request, long tokens, boolean decode) {}

    private final WorkloadSpec spec;
    private final EngineSpec engine;
    private final Scheduler loop;
    private final Clock clock;
    private final ServerTransport transport;
    private final KvServer server;
    private final KvClient client;
    private final Stamping stamping;
    private final MemoryRegion gpu;
    private final EventSink sink;
    private final Listener listener;
    private final long slotBytes;
    private final EngineMemory memory;
    private final ConnectorCalls connector;
    private final EngineLoads loads;
    private final StoreCalls calls;
    private final List<EngineRequest> waiting = new ArrayList<>();
    private final List<EngineRequest> running = new ArrayList<>();
    /** Requests past their first token, in the order they got it: one token each a step until their last. */
    private final List<EngineRequest> decoding = new ArrayList<>();
    /** Decoding requests whose last token is this step's. */
    private final List<EngineRequest> ended = new ArrayList<>();
    private final List<LoadEnd> loadsEnded = new ArrayList<>();
    private final List<Scheduled> scheduled = new ArrayList<>();
    private final List<EngineRequest> finishing = new ArrayList<>();
    private long savesOutstanding;
    private boolean stepping;
    private long steps;
    private int cursor;
    private long budget;
    private long stepStartNs;
    private long scheduleNs;
    private long forwardNs;
    private long forwardEndNs;
    private long tokens;
    private int decodes;
    private long contextTokens;
    private int releasesPending;

    /** A load that ended, to be noticed at the next get_finished. */
    private record LoadEnd(EngineRequest request, boolean ok, long endNs) {}

    /** The parts an engine is wired to. */
    record Parts(Scheduler loop, Clock clock, ServerTransport transport, KvServer server, KvClient client,
                 Stamping stamping, MemoryRegion gpu, EventSink sink, WorkloadDriver.Observer observer) {}

    StepEngine(final WorkloadSpec spec, final Parts parts, final Listener listener) {
        this.spec = spec;
        this.engine = spec.engine();
        this.loop = parts.loop();
        this.clock = parts.clock();
        this.transport = parts.transport();
        this.server = parts.server();
        this.client = parts.client();
        this.stamping = parts.stamping();
        this.gpu = parts.gpu();
        this.sink = parts.sink();
        this.listener = listener;
        this.slotBytes = server.config().slotBytes();
        this.memory = new EngineMemory(spec, slotBytes);

        this.connector = new ConnectorCalls(engine.connector(), spec.blockTokens(), slotBytes,
            server.config().commitMode(), spec.modelId());
        this.calls = new StoreCalls(transport, server, connector);
        this.loads = new EngineLoads(parts, engine.loadsInFlight(), connector, memory, new EngineLoads.Listener() {
            @Override
            public void loadEnded(final EngineRequest r, final boolean ok, final long endNs) {
                loadsEnded.add(new LoadEnd(r, ok, endNs));
            }

            @Override
            public void handled() {
                wake();
            }
        });
    }

    /** The id of the next load (ids must be unique per server across the workload's lives). */
    void firstLoadId(final long id) {
        loads.firstLoadId(id);
    }

    /** A request arrives: it waits for its first schedule; an idle engine starts a step. */
    void enqueue(final EngineRequest r) {
        assert r.state == EngineRequest.State.NEW : "enqueued twice: " + r.id;
        waiting.add(r);
        wake();
    }

    /** Saves handed to the client and not yet committed. */
    long savesOutstanding() {
        return savesOutstanding;
    }

    private void wake() {
        if (!stepping) {
            stepping = true;
            loop.post(this::step);
        }
    }

    // ---------------------------------------------------------------- 1. schedule

    private void step() {
        stepStartNs = clock.nowNs();
        budget = engine.maxBatchedTokens();
        tokens = 0;
        decodes = 0;
        contextTokens = 0;
        scheduled.clear();
        for (int i = 0; i < decoding.size() && budget > 0; i++) {
            final EngineRequest r = decoding.get(i);
            scheduled.add(new Scheduled(r, 1, true));
            budget--;
            tokens++;
            decodes++;
            contextTokens += r.inputTokens + r.generated;
        }
        for (final EngineRequest r : running) {
            if (budget == 0) {
                break;
            }
            take(r, Math.min(r.tokensLeft(), budget));
        }
        cursor = 0;
        scheduleWaiting();
    }

    /** Examines waiting requests from {@link #cursor} in arrival order; each store call continues it later. */
    private void scheduleWaiting() {
        while (budget > 0 && cursor < waiting.size()) {
            final EngineRequest r = waiting.get(cursor);
            switch (r.state) {
                case LOADING -> cursor++;
                case READY -> {
                    if (r.reallocateUpTo > 0) {
                        reallocate(r);
                        return;
                    }
                    waiting.remove(cursor);
                    running.add(r);
                    r.state = EngineRequest.State.RUNNING;
                    take(r, Math.min(r.tokensLeft(), budget));
                }
                case NEW -> {
                    if (!memory.admit(r)) {
                        forward();
                        return;
                    }
                    r.scheduledNs = clock.nowNs();
                    lookup(r);
                    return;
                }
                case RUNNING, DECODING, DONE -> throw new IllegalStateException("request " + r.id + " is " + r.state
                    + " but waiting");
            }
        }
        forward();
    }

    /** The connector's calls (the content versions it keeps). */
    ConnectorCalls connector() {
        return connector;
    }

    private void take(final EngineRequest r, final long n) {
        assert n > 0 && n <= budget : "take " + n + " of budget " + budget;
        scheduled.add(new Scheduled(r, n, false));
        budget -= n;
        tokens += n;
    }

    private void lookup(final EngineRequest r) {
        calls.call(() -> server.lookup(connector.model(r), connector.lookupKeys(r.keys)).prefix(), prefix -> {
            r.cached = ConnectorCalls.blocksOf(prefix);
            sink.emit(new CoreEvent.RequestArrived(r.id, listener.phaseName(r.phase), r.blocks, r.cached));
            calls.allocate(r, r.cached, r.blocks, () -> {
                r.tokensToCompute = EngineRequest.tokensToCompute(r.blocks, r.cached, r.inputTokens,
                    spec.blockTokens());
                if (prefix.isEmpty()) {
                    r.state = EngineRequest.State.READY;
                } else {
                    r.state = EngineRequest.State.LOADING;
                    r.prefix = List.copyOf(prefix);
                    loads.start(r);
                }
                scheduleWaiting();
            });
        });
    }

    /** A request whose load failed asks for the blocks it meant to load, then is scheduled. */
    private void reallocate(final EngineRequest r) {
        final int upTo = r.reallocateUpTo;
        r.reallocateUpTo = 0;
        calls.allocate(r, 0, upTo, this::scheduleWaiting);
    }

    // ---------------------------------------------------------------- 2. forward

    private void forward() {
        scheduleNs = clock.nowNs() - stepStartNs;
        if (scheduled.isEmpty()) {
            // Nothing to prefill: notice ended loads at once, or idle until a load ends or a request arrives.
            stepping = false;
            if (!loadsEnded.isEmpty()) {
                noticeLoads();
                wake();
            }
            return;
        }
        for (final Scheduled s : scheduled) {
            if (!s.decode() && s.tokens() == s.request().tokensLeft()) {
                stampComputed(s.request());
            }
        }
        forwardNs = engine.stepNs(tokens - decodes, decodes, contextTokens);
        loop.at(stepStartNs + scheduleNs + forwardNs, this::getFinished);
    }

    /** The GPU's output: every block the request claimed (and stores) now holds its key's content. */
    private void stampComputed(final EngineRequest r) {
        for (int i = 0; i < r.claims.size(); i++) {
            for (int b = r.claims.block(i); b < r.claims.block(i) + r.claims.ref(i).slotCount(); b++) {
                stamping.stamp(gpu, memory.blockOffset(r.lane, b), slotBytes, connector.computed(r, b));
            }
        }
        for (int b = 0; connector.storesLoaded(r) && b < r.cached; b++) {
            stamping.stamp(gpu, memory.blockOffset(r.lane, b), slotBytes, connector.computed(r, b));
        }
    }

    // ---------------------------------------------------------------- 3. get_finished

    private void getFinished() {
        forwardEndNs = clock.nowNs();
        noticeLoads();
        for (final Scheduled s : scheduled) {
            final EngineRequest r = s.request();
            if (s.decode()) {
                if (++r.generated == r.outputTokens) {
                    decoding.remove(r);
                    ended.add(r);
                }
                continue;
            }
            r.tokensDone += s.tokens();
            if (r.tokensLeft() == 0) {
                running.remove(r);
                finishing.add(r);
            }
        }
        if (finishing.isEmpty()) {
            loop.at(clock.nowNs(), this::output);
            return;
        }
        releasesPending = finishing.size();
        for (final EngineRequest r : List.copyOf(finishing)) {
            save(r);
        }
    }

    /** Loads that ended: their requests may be scheduled (a failed one recomputes what it meant to load). */
    private void noticeLoads() {
        for (final LoadEnd end : loadsEnded) {
            final EngineRequest r = end.request();
            sink.emit(new CoreEvent.LoadWaited(r.id, listener.phaseName(r.phase), end.endNs() - r.loadSentNs,
                end.ok()));
            if (!end.ok()) {
                r.reallocateUpTo = r.cached;
                r.cached = 0;
                r.tokensToCompute = EngineRequest.tokensToCompute(r.blocks, 0, r.inputTokens, spec.blockTokens());
            }
            r.state = EngineRequest.State.READY;
        }
        loadsEnded.clear();
    }

    /** Saves {@code r}'s blocks; a request the connector cancels first releases its claims, then saves nothing. */
    private void save(final EngineRequest r) {
        if (engine.connector().aborts(r.id) && !r.claims.isEmpty()) {
            final List<AllocationRef> claimed = r.claims.values();
            r.claims.clear();
            calls.call(() -> {
                for (final AllocationRef ref : claimed) {
                    server.release(ref);
                }
                return claimed;
            }, released -> save(r));
            return;
        }
        final List<StoreSpec> specs = connector.specs(r, b -> memory.blockId(r.lane, b));
        savesOutstanding++;
        client.save(r.id, specs, gpu, new SaveListener() {
            @Override
            public void released(final long requestId) {
                releasesPending--;
                if (releasesPending == 0) {
                    loop.at(clock.nowNs(), StepEngine.this::output);
                }
            }

            @Override
            public void committed(final long requestId, final List<AllocationRef> accepted,
                                  final List<AllocationRef> rejected) {
                savesOutstanding--;
                listener.saveCommitted(r);
            }
        });
    }

    // ---------------------------------------------------------------- 4. output

    private void output() {
        final long endNs = clock.nowNs();
        final String phase = listener.phaseName(currentPhase());
        sink.emit(new CoreEvent.StepCompleted(++steps, phase, scheduled.size(), tokens, scheduleNs, forwardNs,
            endNs - forwardEndNs, endNs - stepStartNs));
        final List<EngineRequest> done = new ArrayList<>(ended);
        for (final EngineRequest r : finishing) {
            r.firstTokenNs = endNs;
            r.generated = 1;
            if (r.outputTokens > 1) {
                r.state = EngineRequest.State.DECODING;
                decoding.add(r);
            } else {
                done.add(r);
            }
        }
        for (final EngineRequest r : done) {
            r.state = EngineRequest.State.DONE;
            memory.release(r);
            sink.emit(new CoreEvent.RequestFinished(r.id, listener.phaseName(r.phase), endNs - r.arrivalNs, true));
        }
        finishing.clear();
        ended.clear();
        scheduled.clear();
        for (final EngineRequest r : done) {
            listener.finished(r, endNs);
        }
        step();
    }

    private int currentPhase() {
        return scheduled.getFirst().request().phase;
    }
}
