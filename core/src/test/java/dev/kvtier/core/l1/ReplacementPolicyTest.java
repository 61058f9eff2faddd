package dev.kvtier.core.l1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ReplacementPolicyTest {

    private static Entry entry(final long at, final boolean headroom) {
        return L1Access.newEntry(at, L1Access.newSlice(at, 4096), headroom);
    }

    private static List<Entry> drain(final ReplacementPolicy p) {
        final List<Entry> out = new ArrayList<>();
        for (Entry v = p.victim(); v != null; v = p.victim()) {
            out.add(v);
            p.onRemove(v);
        }
        return out;
    }

    @Test
    void shouldEvictLeastRecentlyUsedFirst() {
        final LruPolicy p = new LruPolicy();
        final Entry a = entry(0, false);
        final Entry b = entry(4096, false);
        final Entry c = entry(8192, false);
        p.onInsert(a, p.nextEpoch(), 0);
        p.onInsert(b, p.nextEpoch(), 0);
        p.onInsert(c, p.nextEpoch(), 0);
        p.onHit(a);
        assertEquals(List.of(b, c, a), drain(p));
    }

    @Test
    void shouldPickTheLeastRecentlyUsedVictimOverManyInsertsHitsAndRemovals() {
        // Past a block of the sequence map (64 entries): victims from the front, hits from anywhere, removals too.
        final LruPolicy p = new LruPolicy();
        final List<Entry> normal = new ArrayList<>();
        final List<Entry> headroom = new ArrayList<>();
        final SplittableRandom random = new SplittableRandom(5);
        for (int step = 0; step < 5_000; step++) {
            final int op = random.nextInt(4);
            final List<Entry> any = random.nextInt(8) == 0 ? headroom : normal;
            if (op <= 1 || any.isEmpty()) {
                final Entry e = entry(4096L * step, any == headroom);
                p.onInsert(e, p.nextEpoch(), 0);
                any.add(e);
            } else if (op == 2) {
                final Entry e = any.remove(random.nextInt(any.size()));
                p.onHit(e);
                any.add(e);
            } else {
                final Entry e = any.remove(random.nextInt(any.size()));
                p.onRemove(e);
            }
            final Entry expected = !headroom.isEmpty() ? headroom.get(0) : normal.isEmpty() ? null : normal.get(0);
            assertEquals(expected, p.victim(), "step " + step);
            assertEquals(normal.size() + headroom.size(), p.size());
        }
        final Entry held = normal.get(0);
        p.onRemove(held);
        assertThrows(IllegalStateException.class, () -> p.onHit(held));
        assertThrows(IllegalStateException.class, () -> p.onRemove(held));
    }

    @Test
    void shouldEvictHeadroomBeforeAnyNormalEntry() {
        final LruPolicy p = new LruPolicy();
        final Entry old = entry(0, false);
        final Entry promoted = entry(4096, true);
        p.onInsert(old, p.nextEpoch(), 0);
        p.onInsert(promoted, p.nextEpoch(), 0);
        p.onHit(promoted);
        assertEquals(List.of(promoted, old), drain(p));
        assertNull(p.victim());
    }

    @Test
    void shouldEvictSuffixFirstInsideOneGroup() {
        // Reference: group a, b, c inserted together evicts c, b, a.
        final PrefixLruPolicy p = new PrefixLruPolicy();
        final Entry a = entry(0, false);
        final Entry b = entry(4096, false);
        final Entry c = entry(8192, false);
        final long g = p.nextEpoch();
        p.onInsert(a, g, 0);
        p.onInsert(b, g, 1);
        p.onInsert(c, g, 2);
        assertEquals(List.of(c, b, a), drain(p));
    }

    @Test
    void shouldEvictOlderGroupsBeforeNewerOnes() {
        // Reference: req0 (a0, b0) then req1 (a1, b1) evict b0, a0, b1, a1.
        final PrefixLruPolicy p = new PrefixLruPolicy();
        final Entry a0 = entry(0, false);
        final Entry b0 = entry(4096, false);
        final Entry a1 = entry(8192, false);
        final Entry b1 = entry(12288, false);
        final long g0 = p.nextEpoch();
        p.onInsert(a0, g0, 0);
        p.onInsert(b0, g0, 1);
        final long g1 = p.nextEpoch();
        p.onInsert(a1, g1, 0);
        p.onInsert(b1, g1, 1);
        assertEquals(List.of(b0, a0, b1, a1), drain(p));
    }

    @Test
    void shouldMoveAHitEntryToAFreshEpochOutsideItsGroup() {
        final PrefixLruPolicy p = new PrefixLruPolicy();
        final Entry a = entry(0, false);
        final Entry b = entry(4096, false);
        final long g = p.nextEpoch();
        p.onInsert(a, g, 0);
        p.onInsert(b, g, 1);
        p.onHit(b);
        assertEquals(List.of(a, b), drain(p));
    }

    @Test
    void shouldKeepHeadroomFirstUnderPrefixLru() {
        final PrefixLruPolicy p = new PrefixLruPolicy();
        final Entry n = entry(0, false);
        final Entry h = entry(4096, true);
        p.onInsert(n, p.nextEpoch(), 0);
        p.onInsert(h, p.nextEpoch(), 0);
        assertEquals(h, p.victim());
    }
}
