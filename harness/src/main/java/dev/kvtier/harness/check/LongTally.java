package dev.kvtier.harness.check;

import dev.kvtier.core.util.KeyTable;
import java.util.function.LongBinaryOperator;

/**
 * A map from a long key (a store's id) to a long tally, for the checkers' per-store sums and maxima that every
 * inserted entry updates: a {@link KeyTable} (the key as its first half) of one mutable cell per store, so an update
 * boxes neither key nor value and allocates nothing (a {@code HashMap<Long, Long>.merge} boxes both and may make a
 * node); only a store's first tally allocates its cell. It is never iterated. Not thread-safe.
 */
final class LongTally {
    private final KeyTable<long[]> cells = new KeyTable<>();

    int size() {
        return cells.size();
    }

    /** The tally of {@code key}, or {@code absent} when it has none. */
    long get(final long key, final long absent) {
        final long[] cell = cells.get(key, 0);
        return cell == null ? absent : cell[0];
    }

    /** Sets the tally of {@code key} to {@code value} if it has none, else to {@code op(tally, value)}. */
    void merge(final long key, final long value, final LongBinaryOperator op) {
        final long[] cell = cells.get(key, 0);
        if (cell == null) {
            cells.put(key, 0, new long[] {value});
        } else {
            cell[0] = op.applyAsLong(cell[0], value);
        }
    }

    /** Removes the tally of {@code key}; returns it, or {@code absent} when it had none. */
    long remove(final long key, final long absent) {
        final long[] cell = cells.remove(key, 0);
        return cell == null ? absent : cell[0];
    }
}
