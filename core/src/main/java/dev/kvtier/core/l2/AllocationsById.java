package dev.kvtier.core.store;

import dev.kvtier.core.l2.AllocationRef;
import dev.kvtier.core.util.KeyTable;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The allocations one load leases, by allocation id, in the order it leased them: an array (no boxed ids, no map
 * entries) searched from the start while it is short, with a {@link KeyTable} by id beside it once it is long (so a
 * load of many ranges never costs the square of its ranges). Iteration is in lease order only, never hash order.
 */
final class Leases {
    /** Entries past which a look-up goes through the table instead of the array. */
    static final int SCAN_MAX = 16;

    private final int expected;
    private AllocationRef[] refs;
    private int count;
    /** The same refs by (allocation id, 0); null while {@link #count} is at most {@link #SCAN_MAX}. */
    private KeyTable<AllocationRef> byId;

    /** Holds none; {@code expected}: about how many it will hold (a load's ranges). */
    Leases(final int expected) {
        this.expected = expected;
        this.refs = new AllocationRef[Math.max(1, expected)];
    }

    /** Allocations held. */
    int size() {
        return count;
    }

    /** True when allocation {@code allocationId} is held. */
    boolean contains(final long allocationId) {
        if (byId != null) {
            return byId.containsKey(allocationId, 0);
        }
        return indexOf(allocationId) >= 0;
    }

    /** Holds {@code ref} (its allocation not held yet), last in lease order. */
    void add(final AllocationRef ref) {
        if (count == refs.length) {
            refs = Arrays.copyOf(refs, 2 * count);
        }
        refs[count++] = ref;
        if (byId != null) {
            byId.put(ref.allocationId(), 0, ref);
        } else if (count > SCAN_MAX) {
            byId = new KeyTable<>(Math.max(expected, 2 * count));
            for (int i = 0; i < count; i++) {
                byId.put(refs[i].allocationId(), 0, refs[i]);
            }
        }
    }

    /** Lets allocation {@code allocationId} go (nothing when it is not held); the others keep their order. */
    void remove(final long allocationId) {
        if (byId != null && byId.remove(allocationId, 0) == null) {
            return;
        }
        final int i = indexOf(allocationId);
        if (i < 0) {
            return;
        }
        System.arraycopy(refs, i + 1, refs, i, count - i - 1);
        refs[--count] = null;
    }

    /** Gives each allocation held to {@code action} in lease order, then holds none. */
    void releaseAll(final Consumer<AllocationRef> action) {
        for (int i = 0; i < count; i++) {
            action.accept(refs[i]);
            refs[i] = null;
        }
        count = 0;
        byId = null;
    }

    private int indexOf(final long allocationId) {
        for (int i = 0; i < count; i++) {
            if (refs[i].allocationId() == allocationId) {
                return i;
            }
        }
        return -1;
    }
}
