package dev.kvtier.core.span;

import dev.kvtier.core.value.SpanPiece;
import java.util.ArrayList;
import java.util.List;

/**
 * The server boundary's span shaping. With coalescing on, consecutive spans (in the order sent) that are adjacent in
 * both source and file offset are merged; every byte keeps its source-to-file mapping. We merge only consecutive
 * spans and never reorder: staging sends spans in prefix order, so adjacent spans arrive consecutively, and keeping
 * the send order makes invariant 7 and 8 hold together. With coalescing off, each span passes through alone, in
 * the order sent.
 */
public final class SpanCoalescer {
    private SpanCoalescer() {}

    public static List<StoreSpan> shape(final List<SpanPiece> sent, final boolean coalesce) {
        final List<StoreSpan> out = new ArrayList<>();
        final int n = sent.size();
        int start = 0; // a run is sent[start, i): each span copies its pieces once, no list is grown for a run
        for (int i = 1; i <= n; i++) {
            if (i == n || !(coalesce && adjacent(sent.get(i - 1), sent.get(i)))) {
                out.add(new StoreSpan(sent.subList(start, i)));
                start = i;
            }
        }
        return out;
    }

    private static boolean adjacent(final SpanPiece prev, final SpanPiece next) {
        return prev.srcEnd() == next.srcOffset() && prev.fileEnd() == next.fileOffset();
    }
}
