package dev.kvtier.core.client;

import dev.kvtier.core.value.SpanPiece;
import java.util.List;

/**
 * One bounded staging batch: the blocks copied into staging, in order (block i lands at {@code i * slotBytes}), and
 * the spans that describe where each piece goes, source offsets relative to the batch's start.
 */
public record StagingBatch(List<Integer> blocks, List<SpanPiece> spans) {
    public StagingBatch {
        blocks = List.copyOf(blocks);
        spans = List.copyOf(spans);
    }
}
