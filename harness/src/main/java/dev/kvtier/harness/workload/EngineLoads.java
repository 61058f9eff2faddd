package dev.kvtier.harness.workload;

import dev.kvtier.core.store.LoadResult;
import dev.kvtier.core.value.LoadRange;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The connector's asynchronous loads (docs/design/ENGINE-MODEL.md): at most {@code loadsInFlight} at once, more wait in
 * arrival order. Each load brings a request's cached prefix into its engine memory; when it ends, every loaded block is
 * checked against its key's content (a mismatch goes to the observer) and the engine is told. Not thread-safe: it
 * runs on the loop's thread.
 */
final class EngineLoads {
    /** What a load's end tells the engine. */
    interface Listener {
        /** The load of {@code r} ended at {@code endNs}; {@code ok} when every byte came. */
        void loadEnded(EngineRequest r, boolean ok, long endNs);

        /** Called once a load's end is handled (after the next queued load was sent). */
        void handled();
    }

    private final StepEngine.Parts parts;
    private final int loadsInFlight;
    private final ConnectorCalls connector;
    private final EngineMemory memory;
    private final Listener listener;
    private final ArrayDeque<EngineRequest> queue = new ArrayDeque<>();
    private int loadsNow;
    private long nextLoadId;

    EngineLoads(final StepEngine.Parts parts, final int loadsInFlight, final ConnectorCalls connector,
                final EngineMemory memory, final Listener listener) {
        this.parts = parts;
        this.loadsInFlight = loadsInFlight;
        this.connector = connector;
        this.memory = memory;
        this.listener = listener;
    }

    /** The id of the next load (ids must be unique per server across the workload's lives). */
    void firstLoadId(final long id) {
        nextLoadId = id;
    }

    /** Starts loading {@code r}'s cached prefix, or queues it behind the loads in flight. */
    void start(final EngineRequest r) {
        r.loadSentNs = parts.clock().nowNs();
        if (loadsNow < loadsInFlight) {
            send(r);
        } else {
            queue.add(r);
        }
    }

    private void send(final EngineRequest r) {
        loadsNow++;
        final List<LoadRange> ranges = connector.loadRanges(r.prefix, i -> memory.blockOffset(r.lane, i));
        final long loadId = nextLoadId++;
        parts.observer().loadSent(r.id, loadId);
        parts.transport().toServer(-1, () -> parts.server().load(loadId, ranges, parts.gpu(),
            result -> parts.transport().toClient(-1, () -> landed(r, result))));
    }

    private void landed(final EngineRequest r, final LoadResult result) {
        loadsNow--;
        if (result.ok()) {
            for (int i = 0; i < r.cached; i++) {
                final long bad = parts.stamping().firstMismatch(parts.gpu(), memory.blockOffset(r.lane, i),
                    connector.loadedBytes(i, r.cached), connector.expected(r, i));
                if (bad >= 0) {
                    parts.observer().wrongBytes(r.id, i, bad, r.keys.get(i));
                }
            }
        }
        listener.loadEnded(r, result.ok(), parts.clock().nowNs());
        final EngineRequest queued = queue.poll();
        if (queued != null) {
            send(queued);
        }
        listener.handled();
    }
}
