package dev.kvtier.harness.check;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.EventSink;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * All invariant families, fed every event in order after the core emits it. The first violation throws
 * {@link InvariantViolation} out of the core's call, which stops the run at that event. Drivers report what only
 * they can see (loaded bytes, invariant 12) through {@link #report}.
 */
public final class InvariantChecker implements EventSink {
    private final CheckContext ctx;
    private final Clock clock;
    private final Supplier<List<Checker>> fresh;
    private final List<Checker> lasting;
    private List<Checker> checkers;

    public InvariantChecker(final CoreConfig config, final Clock clock, final List<Checker> checkers) {
        this(config, clock, () -> checkers, List.of());
    }

    /**
     * @param fresh   makes the checkers whose shadow state models one core's life (rebuilt by {@link #restarted})
     * @param lasting checkers that follow the run across crashes (invariant 15)
     */
    public InvariantChecker(final CoreConfig config, final Clock clock, final Supplier<List<Checker>> fresh,
                            final List<Checker> lasting) {
        this.ctx = new CheckContext(config);
        this.clock = clock;
        this.fresh = fresh;
        this.lasting = List.copyOf(lasting);
        this.checkers = concat(fresh.get(), this.lasting);
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
        return standard(config, clock, coreEntries, coreResident, livenessBoundNs, faultsUntilNs, List.of());
    }

    /** As above, with checkers that last across crashes and restarts. */
    public static InvariantChecker standard(final CoreConfig config, final Clock clock,
                                            final LongSupplier coreEntries, final LongSupplier coreResident,
                                            final long livenessBoundNs, final long faultsUntilNs,
                                            final List<Checker> lasting) {
        final CheckContext probe = new CheckContext(config);
        return new InvariantChecker(config, clock, () -> List.of(new CapacityChecker(probe),
            new StructureChecker(coreEntries, coreResident), new EvictionOrderChecker(config.replacement()),
            new SliceOwnershipChecker(), new SpanChecker(), new WriteOrderChecker(), new ReadBatchChecker(),
            new DirectoryChecker(), new FailedWriteChecker(), new PromotionChecker(),
            new LivenessChecker(livenessBoundNs, faultsUntilNs)), lasting);
    }

    /**
     * The core crashed and a new one started: every checker that models one core's state starts over (its shadow
     * state died with the core); the lasting ones go on.
     */
    public void restarted() {
        checkers = concat(fresh.get(), lasting);
    }

    private static List<Checker> concat(final List<Checker> a, final List<Checker> b) {
        final List<Checker> out = new ArrayList<>(a);
        out.addAll(b);
        return List.copyOf(out);
    }

    @Override
    public void emit(final CoreEvent event) {
        ctx.sequence++;
        ctx.timeNs = clock.nowNs();
        ctx.event = event;
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

    /** The context of the current event (for checks made by a runner between events). */
    public CheckContext context() {
        return ctx;
    }

    /** Events checked so far. */
    public long checked() {
        return ctx.sequence;
    }
}
