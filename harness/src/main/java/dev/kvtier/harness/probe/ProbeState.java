package dev.kvtier.harness.probe;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RejectReason;
import dev.kvtier.core.value.SpanPiece;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a stateful probe needs to know about the run so far, built from events only: the run's knobs, the data I/Os in
 * flight, the lives of the core (an index opened with {@code recover} after an earlier open is a restart after a
 * crash) and how far the current life's shutdown got, the checkpoints of this life, a save waiting to stage, each
 * open load's gaps, the store whose batch a memory wait just sealed, and what the stores of each save sent and had
 * rejected ({@link SaveSight}). Probes read it as it was before the event they test; {@link #after} then moves it
 * on. The maps are used for point look-ups only.
 */
public final class ProbeState {
    private final CoreConfig config;
    private final Map<Long, long[]> loadGaps = new HashMap<>();
    private int dataInFlight;
    private int opens;
    private int restarts;
    private boolean shutdownRequested;
    private boolean shutdownCompleted;
    private int checkpointsThisLife;
    private long stagePending = -1;
    /** The store whose open batch was just sealed for a memory wait, until an eviction, a reservation or a wait. */
    private long sealedForMemory = -1;
    private final Map<Long, Long> storeRequests = new HashMap<>();
    private final Map<Long, SaveSight> saves = new HashMap<>();

    public ProbeState(final CoreConfig config) {
        this.config = config;
    }

    public CoreConfig config() {
        return config;
    }

    /** Data-device I/Os submitted and not yet completed. */
    public int dataInFlight() {
        return dataInFlight;
    }

    /** True once the index was opened at least once (so a recovering open is a restart). */
    public boolean opened() {
        return opens > 0;
    }

    /** Restarts after a crash so far. */
    public int restarts() {
        return restarts;
    }

    /** The current life asked for its shutdown. */
    public boolean shutdownRequested() {
        return shutdownRequested;
    }

    /** The current life's shutdown finished (durably or not). */
    public boolean shutdownCompleted() {
        return shutdownCompleted;
    }

    /** Checkpoints made durable in this life so far (the first is the one every open makes). */
    public int checkpointsThisLife() {
        return checkpointsThisLife;
    }

    /** The request whose save was queued by the previous event (its first staging batch is due now), or -1. */
    public long stagePending() {
        return stagePending;
    }

    /**
     * The store whose open write batch was sealed for a memory wait with no eviction, reservation or wait since
     * (a wait of that store now parks it after sealing its own batch), or -1.
     */
    public long sealedForMemory() {
        return sealedForMemory;
    }

    /**
     * True when some allocation of request {@code requestId}'s save was refused in one of its stores for another
     * reason than staleness and admitted whole in another of them.
     */
    public boolean partlyRejected(final long requestId) {
        final SaveSight sight = saves.get(requestId);
        return sight != null && sight.partlyRejected();
    }

    /** Gaps of an open load so far: {count, bytes}; zeros for a load with none. */
    public long[] gaps(final long loadId) {
        return loadGaps.getOrDefault(loadId, new long[2]);
    }

    /** Moves the state past {@code event} (after every probe has seen it). */
    public void after(final CoreEvent event) {
        // A save's first staging batch is due as the very next event; any other event means it waits.
        stagePending = -1;
        if (event instanceof CoreEvent.EntryEvicted || event instanceof CoreEvent.SliceReserved
            || event instanceof CoreEvent.MemoryWait) {
            sealedForMemory = -1;
        }
        switch (event) {
            case CoreEvent.IoSubmitted e -> dataInFlight++;
            case CoreEvent.IoCompleted e -> dataInFlight--;
            case CoreEvent.IndexOpenRequested e -> {
                if (e.recover() && opens > 0) {
                    restarts++;
                }
                opens++;
                dataInFlight = 0;
                shutdownRequested = false;
                shutdownCompleted = false;
                checkpointsThisLife = 0;
                stagePending = -1;
                loadGaps.clear();
                sealedForMemory = -1;
                storeRequests.clear();
                saves.clear();
            }
            case CoreEvent.ShutdownRequested e -> shutdownRequested = true;
            case CoreEvent.ShutdownCompleted e -> shutdownCompleted = true;
            case CoreEvent.IndexCheckpointed e -> checkpointsThisLife++;
            case CoreEvent.SaveQueued e -> stagePending = e.batches() > 0 ? e.requestId() : -1;
            case CoreEvent.LoadGap e -> {
                final long[] g = loadGaps.computeIfAbsent(e.loadId(), k -> new long[2]);
                g[0]++;
                g[1] += e.lengthBytes();
            }
            case CoreEvent.LoadCompleted e -> loadGaps.remove(e.loadId());
            case CoreEvent.LoadFailed e -> loadGaps.remove(e.loadId());
            case CoreEvent.BatchSealed e -> sealedForMemory = e.reason() == CoreEvent.SealReason.MEMORY_WAIT
                ? e.storeId() : sealedForMemory;
            default -> saveEvent(event);
        }
    }

    /** Follows what each save's stores sent and had rejected. */
    private void saveEvent(final CoreEvent event) {
        switch (event) {
            case CoreEvent.BatchSent e -> storeRequests.put(e.storeId(), e.requestId());
            case CoreEvent.StoreSent e -> {
                final Long request = storeRequests.get(e.storeId());
                if (request != null) {
                    saves.computeIfAbsent(request, k -> new SaveSight()).sent.put(e.storeId(), e.spans());
                }
            }
            case CoreEvent.SpanRejected e -> {
                final Long request = storeRequests.get(e.storeId());
                if (request != null) {
                    saves.computeIfAbsent(request, k -> new SaveSight()).rejected.add(new long[] {e.storeId(),
                        e.allocationId(), e.reason() == RejectReason.STALE ? 1 : 0});
                }
            }
            case CoreEvent.StoreCompleted e -> storeRequests.remove(e.storeId());
            case CoreEvent.RequestCommitted e -> saves.remove(e.requestId());
            default -> {
                // no effect on what probes track
            }
        }
    }

    /**
     * One save's stores: the pieces each sent (by store id) and every span rejected, as {store id, allocation id,
     * 1 when stale}.
     */
    private static final class SaveSight {
        final Map<Long, List<SpanPiece>> sent = new LinkedHashMap<>();
        final List<long[]> rejected = new ArrayList<>(2);

        /** Some allocation was refused (not as stale) in one store and sent, and not refused, in another. */
        boolean partlyRejected() {
            for (final long[] r : rejected) {
                if (r[2] == 0 && admittedElsewhere(r[0], r[1])) {
                    return true;
                }
            }
            return false;
        }

        private boolean admittedElsewhere(final long storeId, final long allocationId) {
            for (final Map.Entry<Long, List<SpanPiece>> e : sent.entrySet()) {
                if (e.getKey() != storeId && holds(e.getValue(), allocationId)
                    && !rejectedIn(e.getKey(), allocationId)) {
                    return true;
                }
            }
            return false;
        }

        private boolean rejectedIn(final long storeId, final long allocationId) {
            for (final long[] r : rejected) {
                if (r[0] == storeId && r[1] == allocationId) {
                    return true;
                }
            }
            return false;
        }

        private static boolean holds(final List<SpanPiece> pieces, final long allocationId) {
            for (final SpanPiece p : pieces) {
                if (p.alloc().allocationId() == allocationId) {
                    return true;
                }
            }
            return false;
        }
    }
}
