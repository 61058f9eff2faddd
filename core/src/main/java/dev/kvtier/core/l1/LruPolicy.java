package dev.kvtier.core.l1;

import java.util.Comparator;

/** The reference's victim order: headroom entries first, then least recently inserted or hit. */
public final class LruPolicy extends OrderedClassesPolicy {
    public LruPolicy() {
        super(new BySequence());
    }

    /**
     * Oldest sequence first. A class of its own rather than {@code Comparator.comparingLong(Entry::sequence)}: that
     * one's key extractor is one call site shared by every comparingLong comparator in the JVM, which the JIT cannot
     * inline once several are in use (per-slot's profile showed such comparator chains at 7 %).
     */
    private static final class BySequence implements Comparator<Entry> {
        @Override
        public int compare(final Entry a, final Entry b) {
            return Long.compare(a.sequence(), b.sequence());
        }
    }
}
