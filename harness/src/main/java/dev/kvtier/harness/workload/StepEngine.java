package dev.kvtier.harness.workload;

import dev.kvtier.core.client.KvClient;
import dev.kvtier.core.client.SaveListener;
import dev.kvtier.core.client.ServerTransport;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.l2.AllocationResult;
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
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The inference engine's step loop (docs/design/ENGINE-MODEL.md), driving the store as vLLM's KV connector does. A
 * step:
 * <ol>
 * <li><b>schedule</b>: requests being prefilled first, then waiting ones in arrival order, while the step's token
 * budget lasts. A request's first schedule takes its KV blocks and calls the store <i>synchronously</i>: a lookup,
 * then an allocation of the blocks it will compute. Each call queues on the server thread behind whatever the server
 * is doing, so server work delays the step. A hit is loaded asynchronously: the request sits out until its load
 * ends, then is scheduled with its uncached tokens (at least one);</li>
 * <li><b>forward</b>: the GPU prefills the scheduled tokens ({@link EngineSpec#forwardNs});</li>
 * <li><b>get_finished</b>: loads that ended are noticed; each request whose prefill ended is staged by the client,
 * and the step waits until all of them are (staging copies, and waits for staging room while the server stores
 * earlier batches);</li>
 * <li><b>output</b>: those requests give their first token: their time to first token ends here.</li>
 * </ol>
 * With nothing to schedule the engine idles until a load ends or a request arrives. Time is read from
 * {@code clock}: the simulator's engine worker (the loop's time plus the client-side copies charged to the engine) or
 * the wall clock. Not thread-safe: everything runs on the loop's thread.
 */
final class StepEngine {
    /** What the engine tells the workload driver. */
    interface Listener {
        /** {@code r} gave its first token at {@code atNs}; its client may send the next request. */
        void firstToken(EngineRequest r, long atNs);

        /** The save of {@code r}'s computed blocks was committed (or had nothing to commit). */
        void saveCommitted(EngineRequest r);

        /** The name of phase {@code index}, for notes. */
        String phaseName(int index);
    }

    /** One request scheduled in the current step, with the tokens it prefills there. */
    private record Scheduled(EngineRequest request, long tokens) {}

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
    private final List<EngineRequest> waiting = new ArrayList<>();
    private final List<EngineRequest> running = new ArrayList<>();
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
            server.config().commitMode());
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

    /** Requests in the engine (waiting, loading, being prefilled or staged). */
    int requests() {
        return waiting.size() + running.size() + finishing.size();
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
        scheduled.clear();
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
                case RUNNING, DONE -> throw new IllegalStateException("request " + r.id + " is " + r.state
                    + " but waiting");
            }
        }
        forward();
    }

    private void take(final EngineRequest r, final long n) {
        assert n > 0 && n <= budget : "take " + n + " of budget " + budget;
        scheduled.add(new Scheduled(r, n));
        budget -= n;
        tokens += n;
    }

    private void lookup(final EngineRequest r) {
        call(() -> server.lookup(spec.modelId(), connector.lookupKeys(r.keys)).prefix(), prefix -> {
            r.cached = ConnectorCalls.blocksOf(prefix);
            sink.emit(new CoreEvent.RequestArrived(r.id, listener.phaseName(r.phase), r.blocks, r.cached));
            allocate(r, r.cached, r.blocks, () -> {
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
        allocate(r, 0, upTo, this::scheduleWaiting);
    }

    /** Claims blocks {@code [from, to)} of {@code r} (the ones another writer owns are skipped), then {@code next}. */
    private void allocate(final EngineRequest r, final int from, final int to, final Runnable next) {
        if (from >= to) {
            next.run();
            return;
        }
        allocate(r, connector.allocations(r.keys, from, to), 0, next);
    }

    /** Makes allocation call {@code index} of {@code runs}, then the next, then {@code next}. */
    private void allocate(final EngineRequest r, final List<ConnectorCalls.Run> runs, final int index,
                          final Runnable next) {
        final ConnectorCalls.Run run = runs.get(index);
        call(() -> server.allocate(r.id, spec.modelId(), run.keys(), run.slotsPerKey()), results -> {
            for (int i = 0; i < results.size(); i++) {
                if (results.get(i) instanceof AllocationResult.Claimed c) {
                    r.claims.put(run.fromBlock() + i * run.slotsPerKey(), c.ref());
                }
            }
            if (index + 1 < runs.size()) {
                allocate(r, runs, index + 1, next);
            } else {
                next.run();
            }
        });
    }

    /** A synchronous store call: {@code onServer} runs on the server thread; the step goes on with its reply. */
    private <T> void call(final Supplier<T> onServer, final Consumer<T> onReply) {
        transport.toServer(-1, () -> {
            final T value = onServer.get();
            transport.toClient(-1, () -> onReply.accept(value));
        });
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
            if (s.tokens() == s.request().tokensLeft()) {
                stampComputed(s.request());
            }
        }
        forwardNs = engine.forwardNs(tokens);
        loop.at(stepStartNs + scheduleNs + forwardNs, this::getFinished);
    }

    /** The GPU's output: every block the request claimed (and stores) now holds its key's content. */
    private void stampComputed(final EngineRequest r) {
        for (int i = 0; i < r.claims.size(); i++) {
            for (int b = r.claims.block(i); b < r.claims.block(i) + r.claims.ref(i).slotCount(); b++) {
                stamping.stamp(gpu, memory.blockOffset(r.lane, b), slotBytes, WorkloadDriver.tagOf(r.keys.get(b)));
            }
        }
        for (int b = 0; connector.storesLoaded(r) && b < r.cached; b++) {
            stamping.stamp(gpu, memory.blockOffset(r.lane, b), slotBytes, WorkloadDriver.tagOf(r.keys.get(b)));
        }
    }

    // ---------------------------------------------------------------- 3. get_finished

    private void getFinished() {
        forwardEndNs = clock.nowNs();
        noticeLoads();
        for (final Scheduled s : scheduled) {
            final EngineRequest r = s.request();
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
            call(() -> {
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
        for (final EngineRequest r : finishing) {
            r.state = EngineRequest.State.DONE;
            memory.release(r);
            sink.emit(new CoreEvent.RequestFinished(r.id, listener.phaseName(r.phase), endNs - r.arrivalNs, true));
        }
        final List<EngineRequest> done = List.copyOf(finishing);
        finishing.clear();
        scheduled.clear();
        for (final EngineRequest r : done) {
            listener.firstToken(r, endNs);
        }
        step();
    }

    private int currentPhase() {
        return scheduled.getFirst().request().phase;
    }
}
