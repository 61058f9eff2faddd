package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Invariant 16: every request that arrives finishes exactly once, within {@code boundNs} on the run's clock (virtual
 * time in a simulated run, wall time in a real one); every save is released exactly once and then committed; every
 * grouped store that reached the server completes (a store that waited for memory proceeded); every load finishes;
 * a shutdown that was asked for completes (its data flush and index records done, or failed and said so).
 * Checked as events arrive (a second release, a late finish) and at the end of the run (anything left open). Skips:
 * the time bound for requests that arrived while device faults were still being injected (before
 * {@code faultsUntilNs}); they must still finish. Maps are used for point look-ups only.
 */
public final class LivenessChecker implements Checker {
    private final long boundNs;
    private final long faultsUntilNs;
    private final Map<Long, Long> arrived = new HashMap<>();
    private final Set<Long> saving = new HashSet<>();
    private final Set<Long> released = new HashSet<>();
    private final Set<Long> storesOpen = new HashSet<>();
    private final Set<Long> loadsOpen = new HashSet<>();
    private boolean shutdownOpen;

    public LivenessChecker(final long boundNs) {
        this(boundNs, 0);
    }

    /** The bound applies to requests that arrive at or after {@code faultsUntilNs}. */
    public LivenessChecker(final long boundNs, final long faultsUntilNs) {
        if (boundNs <= 0) {
            throw new IllegalArgumentException("liveness bound must be positive, got " + boundNs);
        }
        this.boundNs = boundNs;
        this.faultsUntilNs = faultsUntilNs;
    }

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.RequestArrived e -> {
                if (arrived.put(e.requestId(), ctx.timeNs()) != null) {
                    ctx.fail(Invariant.LIVENESS, "request " + e.requestId() + " arrived twice");
                }
            }
            case CoreEvent.RequestFinished e -> {
                final Long at = arrived.remove(e.requestId());
                if (!(at != null)) {
                    ctx.fail(Invariant.LIVENESS, "request " + e.requestId() + " finished twice or never" + " arrived");
                }
                if (at >= faultsUntilNs && ctx.timeNs() - at > boundNs) {
                    ctx.fail(Invariant.LIVENESS,
                        "request " + e.requestId() + " took " + (ctx.timeNs() - at) + " ns, bound " + boundNs);
                }
            }
            case CoreEvent.SaveQueued e -> saving.add(e.requestId());
            case CoreEvent.RequestReleased e -> {
                if (!saving.contains(e.requestId()) || !released.add(e.requestId())) {
                    ctx.fail(Invariant.LIVENESS, "request " + e.requestId() + " released twice or without a save");
                }
            }
            case CoreEvent.RequestCommitted e -> {
                if (!(released.remove(e.requestId()))) {
                    ctx.fail(Invariant.LIVENESS, "request " + e.requestId() + " committed before it was released");
                }
                saving.remove(e.requestId());
            }
            case CoreEvent.StoreReceived e -> storesOpen.add(e.storeId());
            case CoreEvent.StoreCompleted e -> storesOpen.remove(e.storeId());
            case CoreEvent.LoadRequested e -> loadsOpen.add(e.loadId());
            case CoreEvent.LoadCompleted e -> loadsOpen.remove(e.loadId());
            case CoreEvent.LoadFailed e -> loadsOpen.remove(e.loadId());
            case CoreEvent.ShutdownRequested _ -> shutdownOpen = true;
            case CoreEvent.ShutdownCompleted _ -> shutdownOpen = false;
            default -> {
                // no effect on liveness
            }
        }
    }

    @Override
    public void atEnd(final CheckContext ctx) {
        if (!(arrived.isEmpty())) {
            ctx.fail(Invariant.LIVENESS, arrived.size() + " requests never finished");
        }
        if (!(saving.isEmpty())) {
            ctx.fail(Invariant.LIVENESS, saving.size() + " saves never committed");
        }
        if (!(storesOpen.isEmpty())) {
            ctx.fail(Invariant.LIVENESS, storesOpen.size() + " stores never completed");
        }
        if (!(loadsOpen.isEmpty())) {
            ctx.fail(Invariant.LIVENESS, loadsOpen.size() + " loads never finished");
        }
        if (shutdownOpen) {
            ctx.fail(Invariant.LIVENESS, "the shutdown was asked for and never completed (durable or not)");
        }
    }
}
