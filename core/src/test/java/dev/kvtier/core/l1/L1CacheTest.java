package dev.kvtier.core.l1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.config.ReplacementKind;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;
import dev.kvtier.core.testkit.HeapMemory;
import dev.kvtier.core.testkit.RecordingSink;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A slice's life through {@link L1Cache} on heap memory: reserve, insert, hold, evict, free, trim, and the edges. */
class L1CacheTest {
    private static final long P = 4096;

    private final HeapMemory memory = new HeapMemory();
    private final RecordingSink sink = new RecordingSink();

    private L1Cache cache(final int l1Pages, final ReplacementKind kind) {
        final CoreConfig config = CoreConfig.builder(P).l2Bytes(64 * P).l1Bytes(l1Pages * P).replacement(kind)
            .build();
        return new L1Cache(config, memory, sink, () -> false);
    }

    private Entry resident(final L1Cache l1, final long fileOffset) {
        final Slice s = l1.reserve(P, null);
        assertNotNull(s);
        return l1.insert(1, fileOffset, 0, s, false, l1.nextEpoch(), 0);
    }

    @Test
    void shouldTrackASliceFromReserveToFree() {
        final L1Cache l1 = cache(4, ReplacementKind.LRU);
        final Slice s = l1.reserve(P, null);
        assertFalse(s.resident());
        assertFalse(s.freed());
        final Entry e = l1.insert(1, 8 * P, 0, s, false, l1.nextEpoch(), 0);
        assertTrue(s.resident());
        assertEquals(P, e.lengthBytes());
        assertEquals(P, l1.residentBytes());
        l1.holdForWrite(s);
        l1.evict(e, L1EvictReason.TRIM);
        assertFalse(s.resident());
        assertFalse(s.freed(), "a pending write still holds it");
        assertTrue(sink.of(CoreEvent.SliceFreed.class).isEmpty());
        l1.writeFinished(s);
        assertTrue(s.freed());
        assertEquals(List.of(new CoreEvent.SliceFreed(s.poolOffset(), P)), sink.of(CoreEvent.SliceFreed.class));
        assertEquals(0, l1.access().pool().usedBytes());
        assertThrows(IllegalStateException.class, () -> l1.writeFinished(s), "no pending write left");
    }

    @Test
    void shouldRefuseToInsertAResidentOrFreedSlice() {
        final L1Cache l1 = cache(4, ReplacementKind.LRU);
        final Entry e = resident(l1, 0);
        assertThrows(IllegalStateException.class, () -> l1.insert(2, 4 * P, 0, e.slice(), false, 1, 0));
        l1.evict(e, L1EvictReason.TRIM);
        assertTrue(e.slice().freed());
        assertThrows(IllegalStateException.class, () -> l1.insert(3, 4 * P, 0, e.slice(), false, 1, 0));
    }

    @Test
    void shouldRunTheWaitHookOnlyBeforeEvictingASliceHeldByAWrite() {
        final AtomicInteger hooks = new AtomicInteger();
        final L1Cache free = cache(2, ReplacementKind.LRU);
        final Entry a = resident(free, 0);
        free.holdForWrite(a.slice());
        free.evict(a, L1EvictReason.TRIM); // not resident, still leased: the pool is short, the budget is not
        resident(free, P);
        assertNotNull(free.reserve(P, hooks::incrementAndGet), "evicting the unheld entry frees its slice");
        assertEquals(0, hooks.get(), "no hook when the victim's slice goes back to the pool");

        final L1Cache held = cache(2, ReplacementKind.LRU);
        final Entry c = resident(held, 0);
        held.holdForWrite(c.slice());
        held.evict(c, L1EvictReason.TRIM);
        final Entry d = resident(held, P);
        held.holdForWrite(d.slice());
        assertNull(held.reserve(P, hooks::incrementAndGet), "every slice is held by a write: wait");
        assertEquals(1, hooks.get(), "the hook runs before evicting a slice a write holds");
        held.writeFinished(c.slice());
        assertNotNull(held.reserve(P, hooks::incrementAndGet));
        assertEquals(1, hooks.get(), "the pool had room: no hook");
    }

    @Test
    void shouldTrimCountingEveryEviction() {
        final L1Cache l1 = cache(20, ReplacementKind.LRU); // headroom 1 page, save target 19
        for (int i = 0; i < 20; i++) {
            resident(l1, i * P);
        }
        l1.trim(7, P);
        final CoreEvent.Trimmed t = sink.of(CoreEvent.Trimmed.class).getFirst();
        assertEquals(new CoreEvent.Trimmed(7, 19 * P, 20 * P, 19 * P, 1), t);
        assertEquals(19, ((OrderedClassesPolicy) l1.access().policy()).size());
    }

    @Test
    void shouldDescribeAndExposeItsParts() {
        final L1Cache l1 = cache(4, ReplacementKind.PREFIX_LRU);
        resident(l1, 0);
        assertEquals(Admission.of(4 * P, CoreConfig.builder(P).l2Bytes(64 * P).l1Bytes(4 * P).build().headroomRatio()),
            l1.admission());
        assertEquals("pool 4096/16384 used, resident 4096", l1.describe());
        assertEquals(4 * P, l1.region().sizeBytes());
        assertSame(l1.region(), l1.segment(0, P).region());
        assertEquals(1, ((OrderedClassesPolicy) l1.access().policy()).size());
    }

    /**
     * Fixed example (issue #15 item 5): a hit makes an entry the most recent, so the next reservation evicts another.
     * Only the chains whose requests exceed the ring found a lost hit.
     */
    @Test
    void shouldEvictTheLeastRecentlyHitEntryFirst() {
        final L1Cache l1 = cache(3, ReplacementKind.LRU);
        final Entry a = resident(l1, 0);
        final Entry b = resident(l1, P);
        resident(l1, 2 * P);
        l1.hit(a);
        assertNotNull(l1.reserve(P, null));
        final CoreEvent.EntryEvicted evicted = sink.of(CoreEvent.EntryEvicted.class).getFirst();
        assertEquals(b.fileOffset(), evicted.fileOffset(), "a was hit after b was inserted");
        assertTrue(l1.nextEpoch() < l1.nextEpoch(), "every group gets a fresh epoch");
    }
}
