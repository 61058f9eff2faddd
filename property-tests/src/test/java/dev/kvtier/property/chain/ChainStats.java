package dev.kvtier.property.chain;

import java.util.concurrent.atomic.AtomicLongArray;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * What the chains of a property explored, counted as they run and printed after each property
 * ({@code @AddLifecycleHook(ChainStats.class)}): chains, actions, crashes and the faults injected, durable commits
 * checked after restarts, and failing chains (violations, shrinking included). Counts of chains that pass and fail
 * alike, so a property's line says what it tried.
 */
// One AtomicLongArray holds every counter, indexed by its ordinal, so a snapshot is one loop over one array.
@SuppressWarnings("EnumOrdinal")
public final class ChainStats implements AroundPropertyHook {
    /** The counters, by index into one array. */
    enum Counter {
        CHAINS,
        ACTIONS,
        CRASHES,
        DATA_EIO,
        INDEX_EIO,
        INDEX_ENOSPC,
        CORRUPTIONS,
        PAGES_WRITTEN,
        PAGES_LOST,
        PAGES_TORN,
        RECOVERED_CHUNKS,
        SURVIVORS_CHECKED,
        SURVIVORS_LOADED,
        DURABLE_CHAINS,
        VIOLATIONS,
        CHECKPOINTS,
        CRASHES_MID_CHECKPOINT
    }

    private static final AtomicLongArray COUNTS = new AtomicLongArray(Counter.values().length);

    static void add(final Counter counter, final long amount) {
        COUNTS.addAndGet(counter.ordinal(), amount);
    }

    static long get(final Counter counter) {
        return COUNTS.get(counter.ordinal());
    }

    private static long[] snapshot() {
        final long[] out = new long[COUNTS.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = COUNTS.get(i);
        }
        return out;
    }

    /** One line: what happened between two snapshots. */
    static String line(final long[] before, final long[] after) {
        final long[] d = new long[after.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = after[i] - before[i];
        }
        return d[Counter.CHAINS.ordinal()] + " chains (" + d[Counter.DURABLE_CHAINS.ordinal()] + " durable), "
            + d[Counter.ACTIONS.ordinal()] + " actions, " + d[Counter.CHECKPOINTS.ordinal()] + " index checkpoints, "
            + d[Counter.CRASHES.ordinal()] + " crashes (" + d[Counter.CRASHES_MID_CHECKPOINT.ordinal()]
            + " during a checkpoint; pages written/"
            + "lost/torn " + d[Counter.PAGES_WRITTEN.ordinal()] + "/" + d[Counter.PAGES_LOST.ordinal()] + "/"
            + d[Counter.PAGES_TORN.ordinal()] + ", " + d[Counter.RECOVERED_CHUNKS.ordinal()] + " chunks recovered, "
            + d[Counter.SURVIVORS_CHECKED.ordinal()] + " durable commits checked in the index, "
            + d[Counter.SURVIVORS_LOADED.ordinal()] + " loaded), faults: " + d[Counter.DATA_EIO.ordinal()]
            + " data EIO, " + d[Counter.INDEX_EIO.ordinal()] + " index EIO, " + d[Counter.INDEX_ENOSPC.ordinal()]
            + " index ENOSPC, " + d[Counter.CORRUPTIONS.ordinal()] + " corruptions; violations "
            + d[Counter.VIOLATIONS.ordinal()];
    }

    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(final PropertyLifecycleContext context,
                                                  final PropertyExecutor property) {
        final long[] before = snapshot();
        final PropertyExecutionResult result = property.execute();
        System.out.println("kvtier chains " + context.label() + ": " + line(before, snapshot()));
        return result;
    }
}
