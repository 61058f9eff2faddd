package dev.kvtier.core.l2;

import dev.kvtier.core.value.AllocationRef;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Allocations by id, in the order their ids were first added (an insertion-ordered map from id to
 * {@link AllocationRef}, as a {@code LinkedHashMap<Long, AllocationRef>} keeps it): an array (no boxed ids, no map
 * entries) searched from the start while it is short, with an open-addressing table of positions by id beside it once
 * it is long (two primitive arrays, linear probing, at most half full: many allocations never cost the square of their
 * count). Iteration is in that order only, never hash order. While the ids come in ascending order (an operation's
 * allocations, claimed in one batch, normally do), a long array is binary-searched instead and the table is never made
 * (it was two arrays of twice the count each, for every store and load of a few hundred allocations).
 * For the allocations of one operation (a load's leases, a store's admitted and rejected pieces); not thread-safe.
 */
public final class AllocationsById {
    /** Entries past which a look-up goes through the table instead of the array. */
    static final int SCAN_MAX = 16;

    private AllocationRef[] refs;
    private int count;
    /** The table's ids, each at its probe position; null while {@link #count} is small. */
    private long[] ids;
    /** Position in {@link #refs} plus one of the id at the same place in {@link #ids}; 0: an empty place. */
    private int[] positions;
    /** Every id in {@link #refs} is larger than the one before it (so a look-up may search the array by halves). */
    private boolean ascending = true;

    /** Holds none; {@code expected}: about how many it will hold. */
    public AllocationsById(final int expected) {
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
        if (ids != null) {
            index(count); // rare (a lease revoked): the table is rebuilt for the shifted positions
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
        ids = null;
        positions = null;
        ascending = true;
    }

    private void append(final AllocationRef ref) {
        if (count == refs.length) {
            refs = Arrays.copyOf(refs, 2 * count);
        }
        refs[count++] = ref;
        if (ascending && (count == 1 || refs[count - 2].allocationId() < ref.allocationId())) {
            return; // still ascending: searched by halves, no table
        }
        ascending = false;
        if (ids != null && 2 * count <= ids.length) {
            place(ref.allocationId(), count - 1);
        } else if (count > SCAN_MAX) {
            index(count);
        }
    }

    /**
     * Builds the table for the first {@code n} refs, at most half full, and big enough for as many as the array holds
     * (the expected count, when it was given): an operation that names as many as it said builds it once.
     */
    private void index(final int n) {
        final int capacity = Integer.highestOneBit(Math.max(SCAN_MAX, Math.max(n, refs.length)) * 2 - 1) << 1;
        ids = new long[capacity];
        positions = new int[capacity];
        for (int i = 0; i < n; i++) {
            place(refs[i].allocationId(), i);
        }
    }

    private void place(final long allocationId, final int position) {
        final int mask = ids.length - 1;
        int i = home(allocationId, mask);
        while (positions[i] != 0) {
            i = (i + 1) & mask;
        }
        ids[i] = allocationId;
        positions[i] = position + 1;
    }

    private static int home(final long allocationId, final int mask) {
        final long h = allocationId * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private int indexOf(final long allocationId) {
        if (ids != null) {
            final int mask = ids.length - 1;
            for (int i = home(allocationId, mask); positions[i] != 0; i = (i + 1) & mask) {
                if (ids[i] == allocationId) {
                    return positions[i] - 1;
                }
            }
            return -1;
        }
        if (ascending && count > SCAN_MAX) {
            return search(allocationId);
        }
        for (int i = 0; i < count; i++) {
            if (refs[i].allocationId() == allocationId) {
                return i;
            }
        }
        return -1;
    }

    /** Where {@code allocationId} is in the ascending array, or -1 (a binary search over the refs' ids). */
    private int search(final long allocationId) {
        int low = 0;
        int high = count - 1;
        while (low <= high) {
            final int mid = (low + high) >>> 1;
            final long id = refs[mid].allocationId();
            if (id < allocationId) {
                low = mid + 1;
            } else if (id > allocationId) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }
}
