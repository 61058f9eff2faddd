package dev.kvtier.core.l1;

/**
 * The reference's victim order: headroom entries first, then least recently inserted or hit. The order is the
 * entries' sequence alone, which grows with every insert and hit, so each class is a {@link VictimClass#bySequence}
 * (a map keyed by the sequence: an insert or a hit appends, a victim leaves from the front) rather than a tree under a
 * comparator (a per-slot run holds ~88,000 entries, and every hit moved one within the tree).
 */
public final class LruPolicy extends OrderedClassesPolicy {
    public LruPolicy() {
        super(VictimClass::bySequence);
    }
}
