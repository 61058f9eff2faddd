package dev.kvtier.harness.probe;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import java.util.HashMap;
import java.util.Map;

/**
 * What a stateful probe needs to know about the run so far, built from events only: the run's knobs, the data I/Os in
 * flight, the lives of the core (an index opened with {@code recover} after an earlier open is a restart after a
 * crash) and how far the current life's shutdown got, the checkpoints of this life, a save waiting to stage, and
 * each open load's gaps. Probes read it as it was before the event they test; {@link #after} then moves it on. The
 * maps are used for point look-ups only.
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

    /** Gaps of an open load so far: {count, bytes}; zeros for a load with none. */
    public long[] gaps(final long loadId) {
        return loadGaps.getOrDefault(loadId, new long[2]);
    }

    /** Moves the state past {@code event} (after every probe has seen it). */
    public void after(final CoreEvent event) {
        // A save's first staging batch is due as the very next event; any other event means it waits.
        stagePending = -1;
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
            default -> {
                // no effect on what probes track
            }
        }
    }
}
