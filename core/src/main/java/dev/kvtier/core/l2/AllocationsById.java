package dev.kvtier.core.l2;

import dev.kvtier.core.util.KeyTable;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Allocations by id, in the order their ids were first added (an insertion-ordered map from id to
 * {@link AllocationRef}, as a {@code LinkedHashMap<Long, AllocationRef>} keeps it): an array (no boxed ids, no map
 * entries) searched from the start while it is short, with a {@link KeyTable} of positions by id beside it once it is
 * long (so many allocations never cost the square of their count). Iteration is in that order only, never hash order.
 * For the allocations of one operation (a load's leases, a store's admitted and rejected pieces); not thread-safe.
 */
public final class AllocationsById {
    /** Entries past which a look-up goes through the table instead of the array. */
    static final int SCAN_MAX = 16;

    private final int expected;
    private AllocationRef[] refs;
    private int count;
    /** Each ref's position in {@link #refs} by (allocation id, 0); null while {@link #count} is small. */
    private KeyTable<int[]> positions;

    /** Holds none; {@code expected}: about how many it will hold. */
    public AllocationsById(final int expected) {
        this.expected = Math.max(0, expected);
        this.refs = new AllocationRef[Math.max(1, Math.min(expected, 1 << 16))];
    }

    /** Allocations held. */
    public int size() {
        return count;
    }

    /** True when allocation {@code allocationId} is held. */
    public boolean contains(final long allocationId) {
        return indexOf(allocationId) >= 0;
    }

    /** Adds {@code ref} last when its allocation is not held yet; nothing otherwise. */
    public void putIfAbsent(final AllocationRef ref) {
        if (indexOf(ref.allocationId()) < 0) {
            append(ref);
        }
    }

    /** Holds {@code ref}: in the place of the ref of its allocation when held (the order kept), else last. */
    public void put(final AllocationRef ref) {
        final int i = indexOf(ref.allocationId());
        if (i >= 0) {
            refs[i] = ref;
        } else {
            append(ref);
        }
    }

    /** Lets allocation {@code allocationId} go (nothing when it is not held); the others keep their order. */
    public void remove(final long allocationId) {
        final int i = indexOf(allocationId);
        if (i < 0) {
            return;
        }
        System.arraycopy(refs, i + 1, refs, i, count - i - 1);
        refs[--count] = null;
        if (positions != null) {
            positions.remove(allocationId, 0);
            for (int j = i; j < count; j++) {
                positions.get(refs[j].allocationId(), 0)[0] = j;
            }
        }
    }

    /** Gives each allocation held to {@code action}, in order. */
    public void forEach(final Consumer<AllocationRef> action) {
        for (int i = 0; i < count; i++) {
            action.accept(refs[i]);
        }
    }

    /** The allocations held, in order (a copy). */
    public List<AllocationRef> values() {
        return List.of(Arrays.copyOf(refs, count));
    }

    /** Gives each allocation held to {@code action} in order, then holds none. */
    public void releaseAll(final Consumer<AllocationRef> action) {
        for (int i = 0; i < count; i++) {
            action.accept(refs[i]);
            refs[i] = null;
        }
        count = 0;
        positions = null;
    }

    private void append(final AllocationRef ref) {
        if (count == refs.length) {
            refs = Arrays.copyOf(refs, 2 * count);
        }
        refs[count++] = ref;
        if (positions != null) {
            positions.put(ref.allocationId(), 0, new int[] {count - 1});
        } else if (count > SCAN_MAX) {
            positions = new KeyTable<>(Math.max(expected, 2 * count));
            for (int i = 0; i < count; i++) {
                positions.put(refs[i].allocationId(), 0, new int[] {i});
            }
        }
    }

    private int indexOf(final long allocationId) {
        if (positions != null) {
            final int[] at = positions.get(allocationId, 0);
            return at == null ? -1 : at[0];
        }
        for (int i = 0; i < count; i++) {
            if (refs[i].allocationId() == allocationId) {
                return i;
            }
        }
        return -1;
    }
}
