package dev.kvtier.core.span;

import dev.kvtier.core.value.SpanPiece;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpanCoalescerTest {
    private static final long S = 4096;

    private static SpanPiece piece(final int key, final long src, final long file) {
        return new SpanPiece(new AllocationRef(new PrefixKey(key, key), key, (int) (file / S), 1), src, file, S);
    }

    @Test
    void shouldMergeSpansAdjacentInSourceAndFile() {
        final List<SpanPiece> sent = List.of(piece(1, 0, 10 * S), piece(2, S, 11 * S), piece(3, 2 * S, 12 * S));
        final List<StoreSpan> out = SpanCoalescer.shape(sent, true);
        assertEquals(1, out.size());
        assertEquals(0, out.getFirst().srcOffset());
        assertEquals(10 * S, out.getFirst().fileOffset());
        assertEquals(3 * S, out.getFirst().lengthBytes());
        assertEquals(sent, out.getFirst().pieces(), "every piece keeps its source-to-file mapping");
    }

    @Test
    void shouldNotMergeSpansAdjacentInFileOnly() {
        final List<SpanPiece> sent = List.of(piece(1, 0, 10 * S), piece(2, 5 * S, 11 * S));
        assertEquals(2, SpanCoalescer.shape(sent, true).size());
    }

    @Test
    void shouldNotMergeSpansAdjacentInSourceOnly() {
        final List<SpanPiece> sent = List.of(piece(1, 0, 10 * S), piece(2, S, 20 * S));
        assertEquals(2, SpanCoalescer.shape(sent, true).size());
    }

    @Test
    void shouldKeepTheOrderSentWhenOff() {
        final List<SpanPiece> sent = List.of(piece(3, 2 * S, 12 * S), piece(1, 0, 10 * S), piece(2, S, 11 * S));
        final List<StoreSpan> out = SpanCoalescer.shape(sent, false);
        assertEquals(3, out.size());
        for (int i = 0; i < 3; i++) {
            assertEquals(List.of(sent.get(i)), out.get(i).pieces());
        }
    }

    @Test
    void shouldNotMergeAdjacentSpansWhenOff() {
        final List<SpanPiece> sent = List.of(piece(1, 0, 10 * S), piece(2, S, 11 * S));
        assertEquals(2, SpanCoalescer.shape(sent, false).size());
    }
}
