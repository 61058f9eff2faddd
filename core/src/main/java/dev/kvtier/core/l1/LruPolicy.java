package dev.kvtier.core.l1;

import java.util.Comparator;

/** The reference's victim order: headroom entries first, then least recently inserted or hit. */
public final class LruPolicy extends OrderedClassesPolicy {
    public LruPolicy() {
        super(Comparator.comparingLong(Entry::sequence));
    }
}
