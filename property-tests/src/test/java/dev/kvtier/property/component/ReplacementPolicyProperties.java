package dev.kvtier.property.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.kvtier.core.l1.Entry;
import dev.kvtier.core.l1.L1Access;
import dev.kvtier.core.l1.LruPolicy;
import dev.kvtier.core.l1.PrefixLruPolicy;
import dev.kvtier.core.l1.ReplacementPolicy;
import dev.kvtier.property.support.Budget;
import dev.kvtier.property.support.BudgetHook;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Each replacement policy against a model that keeps every resident entry with its sequence, group epoch and
 * prefix index and picks the victim by sorting: headroom entries first whatever their recency; within a class LRU
 * by sequence, or for prefix-aware LRU {@code (groupEpoch, -prefixIndex, sequence)}, so inside a group the suffix
 * goes first and a hit moves the entry to a fresh epoch outside its group.
 */
@AddLifecycleHook(BudgetHook.class)
class ReplacementPolicyProperties {
    /** One step: kind 0 inserts a group, 1 hits, 2 removes, 3 evicts the victim. */
    record Op(int kind, int pick, int groupSize, boolean headroom, boolean reversed) {
        @Override
        public String toString() {
            return switch (kind) {
                case 0 -> "insert group of " + groupSize + (headroom ? " headroom" : " normal")
                    + (reversed ? " (suffix first)" : "");
                case 1 -> "hit #" + pick;
                case 2 -> "remove #" + pick;
                default -> "evict victim";
            };
        }
    }

    private static final class ModelEntry {
        final Entry entry;
        long sequence;
        long epoch;
        int prefixIndex;

        ModelEntry(final Entry entry) {
            this.entry = entry;
        }
    }

    private static final class Model {
        final boolean prefixAware;
        final List<ModelEntry> resident = new ArrayList<>();
        long sequence;
        long epoch;

        Model(final boolean prefixAware) {
            this.prefixAware = prefixAware;
        }

        Entry victim() {
            final Comparator<ModelEntry> lru = Comparator.comparingLong(m -> m.sequence);
            final Comparator<ModelEntry> order = prefixAware
                ? Comparator.<ModelEntry>comparingLong(m -> m.epoch).thenComparingInt(m -> -m.prefixIndex)
                    .thenComparing(lru)
                : lru;
            final Comparator<ModelEntry> headroomFirst = Comparator
                .<ModelEntry, Boolean>comparing(m -> !m.entry.headroom())
                .thenComparing(order);
            return resident.stream().min(headroomFirst).map(m -> m.entry).orElse(null);
        }
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        final Arbitrary<Op> op = Combinators.combine(Arbitraries.integers().between(0, 3),
            Arbitraries.integers().between(0, 1000), Arbitraries.integers().between(1, 4), Arbitraries.of(false, true),
            Arbitraries.of(false, true)).as(Op::new);
        return op.list().ofMaxSize(60);
    }

    @Property(tries = 600)
    void lruEvictsHeadroomFirstThenLeastRecentlyUsed(@ForAll("ops") final List<Op> ops) {
        run(new LruPolicy(), new Model(false), ops);
    }

    @Property(tries = 600)
    void prefixLruEvictsHeadroomFirstThenOlderGroupsAndSuffixFirst(@ForAll("ops") final List<Op> ops) {
        run(new PrefixLruPolicy(), new Model(true), ops);
    }

    @Example
    void prefixLruEvictsOneGroupSuffixFirst() {
        final ReplacementPolicy policy = new PrefixLruPolicy();
        final long group = policy.nextEpoch();
        final Entry a = insert(policy, 0, false, group, 0);
        final Entry b = insert(policy, 1, false, group, 1);
        final Entry c = insert(policy, 2, false, group, 2);
        assertEvictionOrder(policy, c, b, a);
    }

    @Example
    void prefixLruEvictsOlderGroupFirst() {
        final ReplacementPolicy policy = new PrefixLruPolicy();
        final long req0 = policy.nextEpoch();
        final Entry a0 = insert(policy, 0, false, req0, 0);
        final Entry b0 = insert(policy, 1, false, req0, 1);
        final long req1 = policy.nextEpoch();
        final Entry a1 = insert(policy, 2, false, req1, 0);
        final Entry b1 = insert(policy, 3, false, req1, 1);
        assertEvictionOrder(policy, b0, a0, b1, a1);
    }

    private static void run(final ReplacementPolicy policy, final Model model, final List<Op> ops) {
        int offsets = 0;
        for (final Op op : ops) {
            switch (op.kind()) {
                case 0 -> offsets = insertGroup(policy, model, op, offsets);
                case 1 -> hit(policy, model, op.pick());
                case 2 -> remove(policy, model, op.pick());
                default -> evict(policy, model);
            }
            assertSame(model.victim(), policy.victim(), "victim after " + op + " of " + ops);
        }
        Budget.componentSteps(ops.size());
        while (!model.resident.isEmpty()) {
            evict(policy, model);
        }
        assertNull(policy.victim(), "no victim when nothing is resident");
    }

    private static int insertGroup(final ReplacementPolicy policy, final Model model, final Op op, final int next) {
        final long group = policy.nextEpoch();
        model.epoch++;
        assertEquals(model.epoch, group, "epochs are fresh and increasing");
        for (int i = 0; i < op.groupSize(); i++) {
            final int prefixIndex = op.reversed() ? op.groupSize() - 1 - i : i;
            final Entry e = insert(policy, next + i, op.headroom(), group, prefixIndex);
            final ModelEntry m = new ModelEntry(e);
            m.sequence = ++model.sequence;
            m.epoch = group;
            m.prefixIndex = prefixIndex;
            model.resident.add(m);
        }
        return next + op.groupSize();
    }

    private static void hit(final ReplacementPolicy policy, final Model model, final int pick) {
        if (model.resident.isEmpty()) {
            return;
        }
        final ModelEntry m = model.resident.get(pick % model.resident.size());
        policy.onHit(m.entry);
        m.sequence = ++model.sequence;
        m.epoch = ++model.epoch;
        m.prefixIndex = 0;
    }

    private static void remove(final ReplacementPolicy policy, final Model model, final int pick) {
        if (model.resident.isEmpty()) {
            return;
        }
        final ModelEntry m = model.resident.remove(pick % model.resident.size());
        policy.onRemove(m.entry);
    }

    private static void evict(final ReplacementPolicy policy, final Model model) {
        final Entry victim = policy.victim();
        assertSame(model.victim(), victim, "victim");
        if (victim == null) {
            return;
        }
        policy.onRemove(victim);
        model.resident.removeIf(m -> m.entry == victim);
    }

    private static Entry insert(final ReplacementPolicy policy, final int slot, final boolean headroom,
                                final long group, final int prefixIndex) {
        final Entry e = L1Access.newEntry(slot * 4096L, L1Access.newSlice(slot * 4096L, 4096), headroom);
        policy.onInsert(e, group, prefixIndex);
        return e;
    }

    private static void assertEvictionOrder(final ReplacementPolicy policy, final Entry... expected) {
        for (final Entry e : expected) {
            assertSame(e, policy.victim());
            policy.onRemove(e);
        }
        assertNull(policy.victim());
    }
}
