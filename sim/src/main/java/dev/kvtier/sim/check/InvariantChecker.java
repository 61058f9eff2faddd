package dev.kvtier.sim.check;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * All invariant families, fed every event in order after the core emits it. The first violation throws
 * {@link InvariantViolation} out of the core's call, which stops the run at that event. Drivers report what only
 * they can see (loaded bytes, invariant 12) through {@link #report}.
 */
public final class InvariantChecker implements EventSink {
    private final CheckContext ctx;
    private final Clock clock;
    private final List<Checker> checkers;

    public InvariantChecker(final CoreConfig config, final Clock clock, final List<Checker> checkers) {
        this.ctx = new CheckContext(config);
        this.clock = clock;
        this.checkers = List.copyOf(checkers);
    }

    /** Every family, wired to a live core's L1 counts for the structural cross-check. */
    public static InvariantChecker standard(final CoreConfig config, final Clock clock,
                                            final LongSupplier coreEntries, final LongSupplier coreResident,
                                            final long livenessBoundNs) {
        return standard(config, clock, coreEntries, coreResident, livenessBoundNs, 0);
    }

    /** As above; the liveness time bound applies to requests arriving once faults stopped ({@code faultsUntilNs}). */
    public static InvariantChecker standard(final CoreConfig config, final Clock clock,
                                            final LongSupplier coreEntries, final LongSupplier coreResident,
                                            final long livenessBoundNs, final long faultsUntilNs) {
        final CheckContext probe = new CheckContext(config);
        return new InvariantChecker(config, clock, List.of(new CapacityChecker(probe),
            new StructureChecker(coreEntries, coreResident), new EvictionOrderChecker(config.replacement()),
            new SliceOwnershipChecker(), new SpanChecker(), new WriteOrderChecker(), new IndexChecker(),
            new LivenessChecker(livenessBoundNs, faultsUntilNs)));
    }

    @Override
    public void emit(final CoreEvent event) {
        ctx.sequence++;
        ctx.timeNs = clock.nowNs();
        for (final Checker c : checkers) {
            c.onEvent(ctx, event);
        }
    }

    /** A violation seen by a driver (for example a loaded slot whose bytes are not its key's). */
    public void report(final Invariant invariant, final String detail) {
        ctx.fail(invariant, detail);
    }

    /** End-of-run checks (after a drain). */
    public void atEnd() {
        for (final Checker c : checkers) {
            c.atEnd(ctx);
        }
    }

    /** Events checked so far. */
    public long checked() {
        return ctx.sequence;
    }
}
