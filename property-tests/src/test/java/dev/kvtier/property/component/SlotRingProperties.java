package dev.kvtier.property.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.SkipReason;
import dev.kvtier.core.l2.AllocationResult;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.property.support.Budget;
import dev.kvtier.property.support.BudgetHook;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The L2 directory and slot ring against a model: a FIFO ring with a head; a run that would cross the end skips the
 * tail (evicting the previous lap's chunks there) and wraps to 0; chunks overlapping the placement are evicted
 * oldest first; live chunks are disjoint; one writer per key; a claim is invisible until committed; lookup answers
 * the longest committed prefix of the caller's model; a commit of an evicted allocation is a late no-op.
 */
@AddLifecycleHook(BudgetHook.class)
class SlotRingProperties {
    private static final int KEYS = 8;

    /** kind 0 allocates {@code count} keys from {@code first}, 1 commits, 2 releases, 3 looks up. */
    record Op(int kind, int first, int count, int slots, int model, int pick) {
        @Override
        public String toString() {
            return switch (kind) {
                case 0 -> "allocate keys " + first + ".." + (first + count - 1) + " x" + slots + " slots model" + model;
                case 1 -> "commit #" + pick;
                case 2 -> "release #" + pick;
                default -> "lookup " + count + " keys model" + model;
            };
        }
    }

    private static final class Chunk {
        final AllocationRef ref;
        final int model;
        boolean committed;

        Chunk(final AllocationRef ref, final int model) {
            this.ref = ref;
            this.model = model;
        }

        boolean overlaps(final int from, final int count) {
            return ref.startSlot() < from + count && from < ref.startSlot() + ref.slotCount();
        }
    }

    private static final class Model {
        final int slots;
        final List<Chunk> byAge = new ArrayList<>();
        final List<AllocationRef> everAllocated = new ArrayList<>();
        int head;

        Model(final int slots) {
            this.slots = slots;
        }

        Chunk live(final PrefixKey key) {
            return byAge.stream().filter(c -> c.ref.key().equals(key)).findFirst().orElse(null);
        }

        /** The allocation ids the ring must evict to place {@code count} slots, in order; moves head. */
        List<Long> place(final int count) {
            final List<Long> evicted = new ArrayList<>();
            if (head + count > slots) {
                final int skipFrom = head;
                evictWhere(c -> c.ref.startSlot() >= skipFrom, evicted);
                head = 0;
            }
            final int from = head;
            evictWhere(c -> c.overlaps(from, count), evicted);
            return evicted;
        }

        private void evictWhere(final java.util.function.Predicate<Chunk> which, final List<Long> evicted) {
            for (final Chunk c : List.copyOf(byAge)) {
                if (which.test(c)) {
                    evicted.add(c.ref.allocationId());
                    byAge.remove(c);
                }
            }
        }
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        final Arbitrary<Op> op = Combinators.combine(Arbitraries.integers().between(0, 3),
            Arbitraries.integers().between(0, KEYS - 1), Arbitraries.integers().between(1, 4),
            Arbitraries.integers().between(1, 3), Arbitraries.integers().between(1, 2),
            Arbitraries.integers().between(0, 1000)).as(Op::new);
        return op.list().ofMaxSize(50);
    }

    @Property(tries = 1000)
    void ringIsFifoDisjointAndWrapsWithSkip(@ForAll @IntRange(min = 1, max = 24) final int slots,
                                            @ForAll("ops") final List<Op> ops) {
        final List<CoreEvent> events = new ArrayList<>();
        final L2Directory dir = new L2Directory(4096, slots, events::add);
        final Model model = new Model(slots);
        for (final Op op : ops) {
            events.clear();
            switch (op.kind()) {
                case 0 -> allocate(dir, model, op, events);
                case 1 -> commit(dir, model, op.pick());
                case 2 -> release(dir, model, op.pick());
                default -> lookup(dir, model, op);
            }
            assertDisjoint(model);
            assertEquals(model.byAge.size(), dir.liveChunks(), "live chunks after " + op);
            assertEquals(model.byAge.stream().map(c -> c.ref).toList(), dir.liveInAgeOrder(), "age order after " + op);
        }
        Budget.componentSteps(ops.size());
    }

    private static void allocate(final L2Directory dir, final Model model, final Op op, final List<CoreEvent> events) {
        final List<PrefixKey> keys = new ArrayList<>();
        for (int i = 0; i < op.count(); i++) {
            keys.add(key((op.first() + i) % KEYS));
        }
        final List<AllocationResult> results = dir.allocate(1, op.model(), keys, op.slots());
        final List<Long> evictedNow = new ArrayList<>();
        for (final CoreEvent e : events) {
            if (e instanceof CoreEvent.RingEvicted ev) {
                evictedNow.add(ev.allocationId());
            }
        }
        final List<Long> expectedEvictions = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            final Chunk existing = model.live(keys.get(i));
            final AllocationResult r = results.get(i);
            if (existing != null) {
                final SkipReason why = existing.committed ? SkipReason.COMMITTED : SkipReason.CLAIMED;
                assertEquals(new AllocationResult.Skipped(keys.get(i), why), r, "one writer per key: " + op);
                continue;
            }
            if (op.slots() > model.slots) {
                assertEquals(SkipReason.TOO_LARGE, ((AllocationResult.Skipped) r).reason(), "too large: " + op);
                continue;
            }
            final List<Long> evicted = model.place(op.slots());
            expectedEvictions.addAll(evicted);
            final AllocationRef ref = ((AllocationResult.Claimed) r).ref();
            assertEquals(model.head, ref.startSlot(), "placement at head (0 after a wrap): " + op);
            assertEquals(op.slots(), ref.slotCount());
            model.head = ref.startSlot() + op.slots() == model.slots ? 0 : ref.startSlot() + op.slots();
            model.byAge.add(new Chunk(ref, op.model()));
            model.everAllocated.add(ref);
        }
        assertEquals(expectedEvictions, evictedNow, "evicted allocations, in order, for " + op);
        assertTrue(isIncreasing(evictedNow), "ring eviction follows allocation order: " + evictedNow);
    }

    private static void commit(final L2Directory dir, final Model model, final int pick) {
        if (model.everAllocated.isEmpty()) {
            return;
        }
        final AllocationRef ref = model.everAllocated.get(pick % model.everAllocated.size());
        final Chunk live = model.byAge.stream().filter(c -> c.ref.equals(ref)).findFirst().orElse(null);
        final long lateBefore = dir.lateCommits();
        final int committed = dir.commit(List.of(ref));
        if (live == null) {
            assertEquals(lateBefore + 1, dir.lateCommits(), "a commit of an evicted allocation is late");
            assertEquals(0, committed);
            return;
        }
        assertEquals(live.committed ? 0 : 1, committed, "commit publishes once");
        live.committed = true;
    }

    private static void release(final L2Directory dir, final Model model, final int pick) {
        if (model.everAllocated.isEmpty()) {
            return;
        }
        final AllocationRef ref = model.everAllocated.get(pick % model.everAllocated.size());
        final Chunk live = model.byAge.stream().filter(c -> c.ref.equals(ref)).findFirst().orElse(null);
        final boolean expected = live != null && !live.committed;
        assertEquals(expected, dir.release(ref), "only a current uncommitted claim is released: " + ref);
        if (expected) {
            model.byAge.remove(live);
        }
    }

    private static void lookup(final L2Directory dir, final Model model, final Op op) {
        final List<PrefixKey> keys = new ArrayList<>();
        for (int i = 0; i < op.count() * 2; i++) {
            keys.add(key(i % KEYS));
        }
        final List<AllocationRef> expected = new ArrayList<>();
        for (final PrefixKey k : keys) {
            final Chunk c = model.live(k);
            if (c == null || !c.committed || c.model != op.model()) {
                break;
            }
            expected.add(c.ref);
        }
        assertEquals(expected, dir.lookup(op.model(), keys).prefix(), "longest committed prefix for " + op);
    }

    private static void assertDisjoint(final Model model) {
        final boolean[] used = new boolean[model.slots];
        for (final Chunk c : model.byAge) {
            for (int s = c.ref.startSlot(); s < c.ref.startSlot() + c.ref.slotCount(); s++) {
                assertTrue(s < model.slots && !used[s], "slot " + s + " held twice or past the end");
                used[s] = true;
            }
        }
    }

    private static boolean isIncreasing(final List<Long> ids) {
        for (int i = 1; i < ids.size(); i++) {
            if (ids.get(i - 1) >= ids.get(i)) {
                return false;
            }
        }
        return true;
    }

    private static PrefixKey key(final int i) {
        return new PrefixKey(i + 1, 0);
    }
}
