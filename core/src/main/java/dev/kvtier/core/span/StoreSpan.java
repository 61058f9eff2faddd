package dev.kvtier.core.span;

import dev.kvtier.core.value.SpanPiece;
import java.util.List;

/**
 * A span as the storage layer sees it: one or more pieces contiguous in both source and file (one piece when
 * coalescing is off). Every byte keeps its source-to-file mapping: byte {@code srcOffset() + i} goes to
 * {@code fileOffset() + i}.
 */
public record StoreSpan(List<SpanPiece> pieces) {
    public StoreSpan {
        pieces = List.copyOf(pieces);
        if (pieces.isEmpty()) {
            throw new IllegalArgumentException("a span needs at least one piece");
        }
        for (int i = 1; i < pieces.size(); i++) {
            final SpanPiece prev = pieces.get(i - 1);
            final SpanPiece next = pieces.get(i);
            if (prev.srcEnd() != next.srcOffset() || prev.fileEnd() != next.fileOffset()) {
                throw new IllegalArgumentException("pieces not contiguous in source and file: " + prev + ", " + next);
            }
        }
    }

    public long srcOffset() {
        return pieces.getFirst().srcOffset();
    }

    public long fileOffset() {
        return pieces.getFirst().fileOffset();
    }

    public long fileEnd() {
        return pieces.getLast().fileEnd();
    }

    public long lengthBytes() {
        return fileEnd() - fileOffset();
    }
}
