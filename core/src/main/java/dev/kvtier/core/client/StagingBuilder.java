package dev.kvtier.core.client;

import dev.kvtier.core.config.StagingLayout;
import dev.kvtier.core.util.Distinct;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.core.value.StoreSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Packs a request's store specs, in prefix order (the order given), into staging batches of at most
 * {@code batchSlots} slots. Each spec contributes one contiguous span per batch it lands in; identical specs are
 * written once. Pure arithmetic: no alignment is assumed (the server boundary checks alignment).
 *
 * <p>Reference example: slot 32 B, cap 64 B, specs k0 = [5,1,7] at 320 and k1 = [8] at 640 give batches
 * [[5,1],[7,8]] with spans [(k0, src 0, 64 B, file 320)] and [(k0, src 0, 32 B, file 384), (k1, src 32, 32 B,
 * file 640)].
 *
 * <p>That is the {@link StagingLayout#PACKED} layout. {@link #build(List, long, int, StagingLayout)} can also lay each
 * batch out {@link StagingLayout#REVERSED}: the same pieces, sent in the same order, with the last one sent at the
 * batch's start. The example's second batch is then [8, 7] with spans [(k0, src 32, 32 B, file 384), (k1, src 0,
 * 32 B, file 640)].
 */
public final class StagingBuilder {
    private StagingBuilder() {}

    public static List<StagingBatch> build(final List<StoreSpec> specs, final long slotBytes, final int batchSlots) {
        if (slotBytes <= 0 || batchSlots <= 0) {
            throw new IllegalArgumentException("slotBytes and batchSlots must be positive: " + slotBytes + ", "
                + batchSlots);
        }
        final List<StoreSpec> distinct = Distinct.inOrder(specs);
        long left = 0; // slots not yet placed: each batch's block list is sized to what it will hold
        for (int k = 0; k < distinct.size(); k++) {
            left += distinct.get(k).blocks().size();
        }
        final List<StagingBatch> out = new ArrayList<>((int) ((left + batchSlots - 1) / batchSlots));
        List<Integer> blocks = new ArrayList<>((int) Math.min(batchSlots, left));
        List<SpanPiece> spans = new ArrayList<>();
        for (int k = 0; k < distinct.size(); k++) {
            final StoreSpec spec = distinct.get(k);
            final List<Integer> specBlocks = spec.blocks();
            int i = 0;
            while (i < specBlocks.size()) {
                if (blocks.size() == batchSlots) {
                    out.add(new StagingBatch(blocks, spans));
                    blocks = new ArrayList<>((int) Math.min(batchSlots, left));
                    spans = new ArrayList<>();
                }
                final int run = Math.min(batchSlots - blocks.size(), specBlocks.size() - i);
                spans.add(new SpanPiece(spec.alloc(), blocks.size() * slotBytes, spec.fileOffset() + i * slotBytes,
                    run * slotBytes));
                for (int j = i; j < i + run; j++) { // one at a time: addAll(subList) copies the run to an array first
                    blocks.add(specBlocks.get(j));
                }
                left -= run;
                i += run;
            }
        }
        if (!blocks.isEmpty()) {
            out.add(new StagingBatch(blocks, spans));
        }
        return out;
    }

    /** The batches of {@link #build(List, long, int)}, each laid out in staging as {@code layout} says. */
    public static List<StagingBatch> build(final List<StoreSpec> specs, final long slotBytes, final int batchSlots,
                                           final StagingLayout layout) {
        final List<StagingBatch> packed = build(specs, slotBytes, batchSlots);
        if (layout == StagingLayout.PACKED) {
            return packed;
        }
        final List<StagingBatch> out = new ArrayList<>(packed.size());
        for (final StagingBatch b : packed) {
            out.add(reversed(b, slotBytes));
        }
        return out;
    }

    /** {@code b} with its pieces back to back in reverse send order: piece j moves to total - src_j - length_j. */
    private static StagingBatch reversed(final StagingBatch b, final long slotBytes) {
        final long total = b.blocks().size() * slotBytes;
        final List<Integer> blocks = new ArrayList<>(b.blocks().size());
        for (int j = b.spans().size() - 1; j >= 0; j--) {
            final SpanPiece p = b.spans().get(j);
            blocks.addAll(b.blocks().subList((int) (p.srcOffset() / slotBytes), (int) (p.srcEnd() / slotBytes)));
        }
        final List<SpanPiece> spans = new ArrayList<>(b.spans().size());
        for (final SpanPiece p : b.spans()) {
            spans.add(new SpanPiece(p.alloc(), total - p.srcEnd(), p.fileOffset(), p.lengthBytes()));
        }
        return new StagingBatch(blocks, spans);
    }
}
