package dev.kvtier.property.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.l1.L1Pool;
import dev.kvtier.property.support.Budget;
import dev.kvtier.property.support.BudgetHook;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The L1 pool against a page-bitmap model: first fit is the lowest run of enough free 4096-byte pages; leases are
 * aligned, inside the pool and never overlap; the free list is exactly the maximal free runs (frees coalesce both
 * neighbours); an allocation fails only when no run is long enough (possibly while enough bytes are free); a double
 * free throws.
 */
@AddLifecycleHook(BudgetHook.class)
class L1PoolProperties {
    private static final long PAGE = 4096;

    /** The model: one flag per page, and the leases in the order given. */
    private static final class Model {
        final boolean[] used;
        final List<long[]> leases = new ArrayList<>();

        Model(final int pages) {
            used = new boolean[pages];
        }

        long firstFit(final int pages) {
            int run = 0;
            for (int p = 0; p < used.length; p++) {
                run = used[p] ? 0 : run + 1;
                if (run == pages) {
                    return (p - pages + 1) * PAGE;
                }
            }
            return L1Pool.NO_SPACE;
        }

        void mark(final long offset, final long bytes, final boolean value) {
            for (long p = offset / PAGE; p < (offset + bytes) / PAGE; p++) {
                assertEquals(!value, used[(int) p], "page " + p + " already " + (value ? "used" : "free"));
                used[(int) p] = value;
            }
        }

        long freeBytes() {
            long free = 0;
            for (final boolean u : used) {
                free += u ? 0 : PAGE;
            }
            return free;
        }

        int freeRuns() {
            int runs = 0;
            for (int p = 0; p < used.length; p++) {
                if (!used[p] && (p == 0 || used[p - 1])) {
                    runs++;
                }
            }
            return runs;
        }
    }

    /**
     * Ops: a positive value allocates that many bytes (any length, rounded up to pages by the pool), a negative
     * one frees lease {@code -value mod leases}.
     */
    @Property(tries = 1000)
    void leasesAreFirstFitAlignedDisjointAndFreesCoalesce(@ForAll @IntRange(min = 1, max = 48) final int pages,
                                                          @ForAll @Size(max = 80) final List<@IntRange(min = -1000,
                                                              max = 80_000) Integer> ops) {
        final L1Pool pool = new L1Pool(pages * PAGE);
        final Model model = new Model(pages);
        for (final int op : ops) {
            if (op > 0) {
                allocate(pool, model, op);
            } else if (!model.leases.isEmpty()) {
                free(pool, model, model.leases.remove(Math.floorMod(-op, model.leases.size())));
            }
            assertEquals(model.freeBytes(), pool.freeBytes(), "free bytes");
            assertEquals(pages * PAGE - model.freeBytes(), pool.usedBytes(), "used bytes");
            assertEquals(model.freeRuns(), pool.freeBlocks(), "free blocks must be the maximal free runs");
            assertFreeListMatches(pool, model);
        }
        Budget.componentSteps(ops.size());
        while (!model.leases.isEmpty()) {
            free(pool, model, model.leases.removeLast());
        }
        assertEquals(1, pool.freeBlocks(), "everything freed coalesces into one block");
        assertEquals(pages * PAGE, pool.freeBytes());
    }

    @Property(tries = 300)
    void doubleFreeThrows(@ForAll @IntRange(min = 2, max = 16) final int pages,
                          @ForAll @IntRange(min = 1, max = 8192) final int length) {
        final L1Pool pool = new L1Pool(pages * PAGE);
        final long at = pool.allocate(length);
        pool.free(at, length);
        assertThrows(IllegalStateException.class, () -> pool.free(at, length));
        assertEquals(pages * PAGE, pool.freeBytes(), "a rejected double free changes nothing");
    }

    private static void allocate(final L1Pool pool, final Model model, final int bytes) {
        final int pages = (int) ((bytes + PAGE - 1) / PAGE);
        final long expected = model.firstFit(pages);
        final long got = pool.allocate(bytes);
        assertEquals(expected, got, "first fit for " + bytes + " B (" + pages + " pages)");
        if (got == L1Pool.NO_SPACE) {
            return;
        }
        assertEquals(0, got % PAGE, "lease offset aligned");
        assertTrue(got + pages * PAGE <= pool.capacityBytes(), "lease inside the pool");
        model.mark(got, pages * PAGE, true);
        model.leases.add(new long[] {got, bytes});
    }

    private static void free(final L1Pool pool, final Model model, final long[] lease) {
        pool.free(lease[0], lease[1]);
        model.mark(lease[0], (lease[1] + PAGE - 1) / PAGE * PAGE, false);
    }

    private static void assertFreeListMatches(final L1Pool pool, final Model model) {
        for (final Map.Entry<Long, Long> block : pool.freeList().entrySet()) {
            final long start = block.getKey();
            final long end = start + block.getValue();
            for (long p = start / PAGE; p < end / PAGE; p++) {
                assertTrue(!model.used[(int) p], "free block covers used page " + p);
            }
            assertTrue(start == 0 || model.used[(int) (start / PAGE) - 1], "free block at " + start
                + " not merged with its free left neighbour");
            assertTrue(end == pool.capacityBytes() || model.used[(int) (end / PAGE)], "free block ending at "
                + end + " not merged with its free right neighbour");
        }
    }
}
