package dev.kvtier.core.l1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class L1PoolTest {
    private static final long P = 4096;

    @Test
    void shouldLeaseFirstFitAndRoundUpTo4096() {
        final L1Pool pool = new L1Pool(8 * P);
        assertEquals(0, pool.allocate(1));
        assertEquals(P, pool.allocate(P + 1));
        assertEquals(3 * P, pool.allocate(P));
        assertEquals(4 * P, pool.usedBytes());
    }

    @Test
    void shouldCoalesceFreesWithBothNeighbours() {
        final L1Pool pool = new L1Pool(4 * P);
        final long a = pool.allocate(P);
        final long b = pool.allocate(P);
        final long c = pool.allocate(P);
        pool.free(a, P);
        pool.free(c, P);
        assertEquals(2, pool.freeBlocks(), "c merged with the free tail; a stands alone");
        pool.free(b, P);
        assertEquals(1, pool.freeBlocks());
        assertEquals(0, pool.allocate(4 * P));
    }

    @Test
    void shouldFailOnFragmentationWhileUsedIsBelowCapacity() {
        final L1Pool pool = new L1Pool(4 * P);
        final long a = pool.allocate(P);
        pool.allocate(P);
        final long c = pool.allocate(P);
        pool.allocate(P);
        pool.free(a, P);
        pool.free(c, P);
        assertEquals(2 * P, pool.freeBytes());
        assertEquals(L1Pool.NO_SPACE, pool.allocate(2 * P));
    }

    @Test
    void shouldReuseTheLowestFittingHole() {
        final L1Pool pool = new L1Pool(8 * P);
        final long a = pool.allocate(2 * P);
        pool.allocate(P);
        pool.free(a, 2 * P);
        assertEquals(0, pool.allocate(P));
        assertEquals(P, pool.allocate(P));
    }

    @Test
    void shouldDetectDoubleFree() {
        final L1Pool pool = new L1Pool(4 * P);
        final long a = pool.allocate(P);
        pool.free(a, P);
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.free(a, P));
        assertTrue(e.getMessage().contains("double free"), e.getMessage());
    }

    @Test
    void shouldRejectUnalignedCapacity() {
        assertThrows(IllegalArgumentException.class, () -> new L1Pool(5000));
    }

    @Test
    void shouldRefuseAnEmptyLease() {
        final L1Pool pool = new L1Pool(4 * P);
        assertThrows(IllegalArgumentException.class, () -> pool.allocate(0));
        assertEquals(0, pool.allocate(1), "one byte leases one aligned block");
        assertEquals(P, pool.usedBytes());
    }

    @Test
    void shouldRefuseAFreeRunningPastThePool() {
        final L1Pool pool = new L1Pool(4 * P);
        for (int i = 0; i < 4; i++) {
            pool.allocate(P);
        }
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.free(3 * P, 2 * P));
        assertTrue(e.getMessage().contains("outside"), e.getMessage());
    }

    @Test
    void shouldDetectAFreeOverlappingTheFreeBlockBeforeIt() {
        final L1Pool pool = new L1Pool(4 * P);
        for (int i = 0; i < 4; i++) {
            pool.allocate(P);
        }
        pool.free(0, 2 * P);
        assertThrows(IllegalStateException.class, () -> pool.free(P, P));
        assertEquals(2 * P, pool.usedBytes());
    }

    @Test
    void shouldDetectAFreeOverlappingTheFreeBlockAfterIt() {
        final L1Pool pool = new L1Pool(4 * P);
        for (int i = 0; i < 4; i++) {
            pool.allocate(P);
        }
        pool.free(P, P);
        assertThrows(IllegalStateException.class, () -> pool.free(0, 2 * P));
        assertEquals(3 * P, pool.usedBytes());
    }

    /** Fixed example (issue #15 item 5): the last block of the pool frees (only random frees found this bound). */
    @Test
    void shouldFreeTheLastBlockOfAFullPool() {
        final L1Pool pool = new L1Pool(4 * P);
        for (int i = 0; i < 4; i++) {
            pool.allocate(P);
        }
        pool.free(3 * P, P);
        assertEquals(3 * P, pool.usedBytes());
        assertEquals(3 * P, pool.allocate(P));
    }
}
