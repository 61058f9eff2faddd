package dev.kvtier.core.client;

import dev.kvtier.core.config.StagingLayout;
import dev.kvtier.core.value.StoreSpec;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import java.util.List;
import org.junit.jupiter.api.Test;

class StagingBuilderTest {
    private static final long SLOT = 32;
    private final AllocationRef k0 = new AllocationRef(new PrefixKey(0, 0), 1, 10, 3);
    private final AllocationRef k1 = new AllocationRef(new PrefixKey(1, 1), 2, 20, 1);

    @Test
    void shouldPackTheReferenceExampleIntoTwoBatches() {
        // Reference: k0 = blocks [5,1,7] at file 320, k1 = [8] at 640, slot 32 B, batch cap 64 B.
        final List<StoreSpec> specs = List.of(new StoreSpec(k0, List.of(5, 1, 7), 320),
            new StoreSpec(k1, List.of(8), 640));
        final List<StagingBatch> batches = StagingBuilder.build(specs, SLOT, 2);
        assertEquals(2, batches.size());
        assertEquals(List.of(5, 1), batches.get(0).blocks());
        assertEquals(List.of(7, 8), batches.get(1).blocks());
        assertEquals(List.of(new SpanPiece(k0, 0, 320, 64)), batches.get(0).spans());
        assertEquals(List.of(new SpanPiece(k0, 0, 384, 32), new SpanPiece(k1, 32, 640, 32)),
            batches.get(1).spans());
    }

    @Test
    void shouldWriteIdenticalSpecsOnce() {
        final StoreSpec spec = new StoreSpec(k1, List.of(8), 640);
        final List<StagingBatch> batches = StagingBuilder.build(List.of(spec, spec), SLOT, 4);
        assertEquals(1, batches.size());
        assertEquals(List.of(8), batches.getFirst().blocks());
        assertEquals(1, batches.getFirst().spans().size());
    }

    @Test
    void shouldKeepPrefixOrderAndBatchBounds() {
        final List<StoreSpec> specs = List.of(new StoreSpec(k0, List.of(5, 1, 7), 320),
            new StoreSpec(k1, List.of(8), 640));
        final List<StagingBatch> batches = StagingBuilder.build(specs, SLOT, 3);
        assertEquals(List.of(5, 1, 7), batches.get(0).blocks());
        assertEquals(List.of(8), batches.get(1).blocks());
        for (final StagingBatch b : batches) {
            long src = 0;
            for (final SpanPiece p : b.spans()) {
                assertEquals(src, p.srcOffset(), "spans tile the batch in order");
                src += p.lengthBytes();
            }
        }
    }

    /** The reference example laid out reversed: the same pieces in the same order, the last one sent first. */
    @Test
    void shouldLayTheReferenceExampleOutReversed() {
        final List<StoreSpec> specs = List.of(new StoreSpec(k0, List.of(5, 1, 7), 320),
            new StoreSpec(k1, List.of(8), 640));
        final List<StagingBatch> batches = StagingBuilder.build(specs, SLOT, 2, StagingLayout.REVERSED);
        assertEquals(List.of(5, 1), batches.get(0).blocks());
        assertEquals(List.of(new SpanPiece(k0, 0, 320, 64)), batches.get(0).spans());
        assertEquals(List.of(8, 7), batches.get(1).blocks());
        assertEquals(List.of(new SpanPiece(k0, 32, 384, 32), new SpanPiece(k1, 0, 640, 32)),
            batches.get(1).spans());
        assertEquals(StagingBuilder.build(specs, SLOT, 2), StagingBuilder.build(specs, SLOT, 2, StagingLayout.PACKED));
    }

    /** Reversed, every slot still lands where its block's bytes go: block at staging slot i is the piece's block. */
    @Test
    void shouldKeepEveryBlocksFileOffsetReversed() {
        final AllocationRef k2 = new AllocationRef(new PrefixKey(2, 2), 3, 30, 2);
        final List<StoreSpec> specs = List.of(new StoreSpec(k0, List.of(5, 1, 7), 320),
            new StoreSpec(k1, List.of(8), 416), new StoreSpec(k2, List.of(3, 4), 448));
        final List<StagingBatch> packed = StagingBuilder.build(specs, SLOT, 5);
        final List<StagingBatch> reversed = StagingBuilder.build(specs, SLOT, 5, StagingLayout.REVERSED);
        assertEquals(packed.size(), reversed.size());
        for (int b = 0; b < packed.size(); b++) {
            assertEquals(fileOfBlock(packed.get(b)), fileOfBlock(reversed.get(b)), "batch " + b);
        }
        assertEquals(List.of(3, 8, 5, 1, 7), reversed.get(0).blocks());
        assertEquals(List.of(4), reversed.get(1).blocks());
    }

    /** Block id to the file offset its bytes are written at, from a batch's blocks and spans. */
    private static java.util.Map<Integer, Long> fileOfBlock(final StagingBatch b) {
        final java.util.Map<Integer, Long> out = new java.util.HashMap<>();
        for (final SpanPiece p : b.spans()) {
            for (long at = 0; at < p.lengthBytes(); at += SLOT) {
                out.put(b.blocks().get((int) ((p.srcOffset() + at) / SLOT)), p.fileOffset() + at);
            }
        }
        return out;
    }
}
