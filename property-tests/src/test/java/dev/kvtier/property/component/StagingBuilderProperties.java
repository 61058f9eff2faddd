package dev.kvtier.property.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.client.StagingBatch;
import dev.kvtier.core.client.StagingBuilder;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import dev.kvtier.property.support.Budget;
import dev.kvtier.property.support.BudgetHook;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The staging builder (invariant 9) against a model that lists, for the de-duplicated specs in the order given,
 * every slot as (spec, index in spec): the batches, read in order, hold exactly those slots' blocks; every batch but
 * the last is full and none exceeds the bound; each batch's spans tile it from source 0, name their spec's
 * allocation and file offset slot by slot, and each spec contributes at most one span per batch.
 */
@AddLifecycleHook(BudgetHook.class)
class StagingBuilderProperties {
    private static final long SLOT = 32;

    @Provide
    Arbitrary<List<StoreSpec>> specs() {
        final Arbitrary<StoreSpec> spec = Arbitraries.integers().between(0, 9)
            .flatMap(key -> Arbitraries.integers().between(0, 99).list().ofMinSize(1).ofMaxSize(5).map(blocks -> {
                final AllocationRef alloc = new AllocationRef(new PrefixKey(key + 1, 0), key + 1, key * 8, 5);
                return new StoreSpec(alloc, blocks, alloc.fileOffset(SLOT));
            }));
        return spec.list().ofMaxSize(8).flatMap(list -> Arbitraries.integers().between(0, 2).map(dups -> {
            final List<StoreSpec> out = new ArrayList<>(list);
            for (int i = 0; i < dups && !list.isEmpty(); i++) {
                out.add((i * 3) % out.size(), list.get((i * 5) % list.size()));
            }
            return out;
        }));
    }

    @Property(tries = 1000)
    void batchesFollowPrefixOrderBoundsAndWriteDuplicatesOnce(@ForAll("specs") final List<StoreSpec> specs,
                                                              @ForAll @IntRange(min = 1,
                                                                  max = 6) final int batchSlots) {
        final List<StagingBatch> batches = StagingBuilder.build(specs, SLOT, batchSlots);
        final List<StoreSpec> unique = new ArrayList<>(new LinkedHashSet<>(specs));
        final List<Integer> expectedBlocks = new ArrayList<>();
        final List<Long> expectedFile = new ArrayList<>();
        final List<StoreSpec> expectedSpec = new ArrayList<>();
        for (final StoreSpec s : unique) {
            for (int i = 0; i < s.blocks().size(); i++) {
                expectedBlocks.add(s.blocks().get(i));
                expectedFile.add(s.fileOffset() + i * SLOT);
                expectedSpec.add(s);
            }
        }
        final List<Integer> blocks = new ArrayList<>();
        int slot = 0;
        for (int b = 0; b < batches.size(); b++) {
            final StagingBatch batch = batches.get(b);
            assertTrue(batch.blocks().size() <= batchSlots, "batch " + b + " exceeds " + batchSlots + " slots");
            assertTrue(b == batches.size() - 1 || batch.blocks().size() == batchSlots, "batch " + b + " not full");
            slot = checkSpans(batch, slot, expectedFile, expectedSpec);
            blocks.addAll(batch.blocks());
        }
        assertEquals(expectedBlocks, blocks, "blocks in prefix order, duplicates once");
        Budget.componentSteps(specs.size());
    }

    @Example
    void referenceExample() {
        final AllocationRef k0 = new AllocationRef(new PrefixKey(1, 0), 1, 10, 3);
        final AllocationRef k1 = new AllocationRef(new PrefixKey(2, 0), 2, 20, 1);
        final List<StagingBatch> batches = StagingBuilder.build(List.of(new StoreSpec(k0, List.of(5, 1, 7), 320),
            new StoreSpec(k1, List.of(8), 640)), 32, 2);
        assertEquals(List.of(new StagingBatch(List.of(5, 1), List.of(new SpanPiece(k0, 0, 320, 64))),
            new StagingBatch(List.of(7, 8), List.of(new SpanPiece(k0, 0, 384, 32), new SpanPiece(k1, 32, 640, 32)))),
            batches);
    }

    /** Checks one batch's spans against the model's slots from {@code firstSlot}; returns the next slot. */
    private static int checkSpans(final StagingBatch batch, final int firstSlot, final List<Long> expectedFile,
                                  final List<StoreSpec> expectedSpec) {
        long src = 0;
        int slot = firstSlot;
        final Set<StoreSpec> seen = new HashSet<>();
        for (final SpanPiece p : batch.spans()) {
            assertEquals(src, p.srcOffset(), "spans tile the batch");
            final StoreSpec owner = expectedSpec.get(slot);
            assertTrue(seen.add(owner), "spec " + owner + " has two spans in one batch");
            for (long at = 0; at < p.lengthBytes(); at += SLOT) {
                assertEquals(expectedSpec.get(slot).alloc(), p.alloc(), "slot " + slot + " allocation");
                assertEquals(expectedFile.get(slot), p.fileOffset() + at, "slot " + slot + " file offset");
                slot++;
            }
            src += p.lengthBytes();
        }
        assertEquals(batch.blocks().size() * SLOT, src, "spans cover the batch's blocks");
        return slot;
    }
}
