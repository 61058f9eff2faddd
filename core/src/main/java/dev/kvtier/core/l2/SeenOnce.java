package dev.kvtier.core.l2;

import dev.kvtier.core.value.PrefixKey;
import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * The keys asked for once and not admitted ({@code L2Admission.SECOND_SIGHT}): at most {@code capacity}, the oldest
 * forgotten first (insertion order: deterministic whatever the keys' hashes).
 */
final class SeenOnce {
    private final int capacity;
    private final LinkedHashSet<PrefixKey> keys = new LinkedHashSet<>();

    SeenOnce(final int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** True when {@code key} was seen once before (it is then forgotten: it is admitted now); else remembers it. */
    boolean secondSight(final PrefixKey key) {
        if (keys.remove(key)) {
            return true;
        }
        if (keys.size() == capacity) {
            final Iterator<PrefixKey> oldest = keys.iterator();
            oldest.next();
            oldest.remove();
        }
        keys.add(key);
        return false;
    }
}
