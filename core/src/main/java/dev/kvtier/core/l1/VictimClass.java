package dev.kvtier.core.l1;

import dev.kvtier.core.util.LongSortedMap;
import java.util.Comparator;
import java.util.TreeSet;

/**
 * One class of a {@link OrderedClassesPolicy}'s entries (headroom or normal) in victim order, the next victim first.
 * An entry's order may not change while the class holds it (the policy removes it, changes it and adds it back).
 */
interface VictimClass {
    /** Adds the entry; false (nothing changed) when the class holds one in its place already. */
    boolean add(Entry entry);

    /** Removes the entry; false when the class does not hold it. */
    boolean remove(Entry entry);

    /** The next victim, or null when the class is empty. */
    Entry first();

    /** Entries held. */
    int size();

    /** A class ordered by {@code order} (a total order over the entries a policy holds), in a tree. */
    static VictimClass ordered(final Comparator<Entry> order) {
        final TreeSet<Entry> set = new TreeSet<>(order);
        return new VictimClass() {
            @Override
            public boolean add(final Entry entry) {
                return set.add(entry);
            }

            @Override
            public boolean remove(final Entry entry) {
                return set.remove(entry);
            }

            @Override
            public Entry first() {
                return set.isEmpty() ? null : set.first();
            }

            @Override
            public int size() {
                return set.size();
            }
        };
    }

    /**
     * A class ordered by {@link Entry#sequence} alone (unique, and given in increasing order, so an add goes after
     * every entry held): the same order as {@code ordered} with a comparator of the sequences, in a
     * {@link LongSortedMap} keyed by the sequence (no tree node or comparator call per step).
     */
    static VictimClass bySequence() {
        final LongSortedMap<Entry> map = new LongSortedMap<>();
        return new VictimClass() {
            @Override
            public boolean add(final Entry entry) {
                return map.putIfAbsent(entry.sequence, entry) == null;
            }

            @Override
            public boolean remove(final Entry entry) {
                return map.remove(entry.sequence) != null;
            }

            @Override
            public Entry first() {
                return map.firstValue();
            }

            @Override
            public int size() {
                return map.size();
            }
        };
    }
}
