package dev.kvtier.property.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.kvtier.core.span.SpanCoalescer;
import dev.kvtier.core.span.StoreSpan;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import dev.kvtier.property.support.Budget;
import dev.kvtier.property.support.BudgetHook;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Span shaping at the server boundary (invariants 7 and 8). Spans are generated as runs that are often adjacent in
 * source and file (as staging sends them) and sometimes jump in either. With coalescing off every span passes alone,
 * in the order sent; with it on the output, read in order, is the input, every output span joins only inputs
 * contiguous in source and file, merging is maximal (no two consecutive outputs could have been joined), and every
 * byte keeps its source-to-file mapping.
 */
@AddLifecycleHook(BudgetHook.class)
class SpanCoalescerProperties {
    private static final long PAGE = 4096;

    /** How the next span relates to the previous one. */
    record Step(int pages, boolean jumpSource, boolean jumpFile, int key) {}

    @Provide
    Arbitrary<List<SpanPiece>> spans() {
        final Arbitrary<Step> step = Combinators.combine(Arbitraries.integers().between(1, 4),
            Arbitraries.integers().between(0, 3).map(i -> i == 0),
            Arbitraries.integers().between(0, 3).map(i -> i == 0),
            Arbitraries.integers().between(0, 3)).as(Step::new);
        return step.list().ofMaxSize(30).map(SpanCoalescerProperties::toSpans);
    }

    @Property(tries = 1000)
    void coalescingOffKeepsEverySpanInOrder(@ForAll("spans") final List<SpanPiece> sent) {
        final List<StoreSpan> out = SpanCoalescer.shape(sent, false);
        assertEquals(sent.size(), out.size(), "one output per span");
        for (int i = 0; i < sent.size(); i++) {
            assertEquals(List.of(sent.get(i)), out.get(i).pieces(), "span " + i + " in the order sent");
        }
        Budget.componentSteps(sent.size());
    }

    @Property(tries = 1000)
    void coalescingOnJoinsOnlyContiguousSpansAndKeepsEveryByte(@ForAll("spans") final List<SpanPiece> sent) {
        final List<StoreSpan> out = SpanCoalescer.shape(sent, true);
        final List<SpanPiece> concatenated = new ArrayList<>();
        for (final StoreSpan s : out) {
            concatenated.addAll(s.pieces());
            long src = s.srcOffset();
            long file = s.fileOffset();
            for (final SpanPiece p : s.pieces()) {
                assertEquals(src, p.srcOffset(), "pieces contiguous in source");
                assertEquals(file, p.fileOffset(), "pieces contiguous in file");
                src += p.lengthBytes();
                file += p.lengthBytes();
            }
            assertEquals(s.lengthBytes(), src - s.srcOffset(), "span length is the sum of its pieces");
        }
        assertEquals(sent, concatenated, "the output, read in order, is the input");
        for (int i = 1; i < out.size(); i++) {
            final StoreSpan prev = out.get(i - 1);
            final StoreSpan next = out.get(i);
            assertFalse(
                prev.srcOffset() + prev.lengthBytes() == next.srcOffset() && prev.fileEnd() == next.fileOffset(),
                "outputs " + (i - 1) + " and " + i + " are contiguous but were not merged");
        }
        assertEquals(byteMap(sent), byteMapOfSpans(out), "every byte keeps its source-to-file mapping");
        Budget.componentSteps(sent.size());
    }

    private static List<SpanPiece> toSpans(final List<Step> steps) {
        final List<SpanPiece> out = new ArrayList<>();
        long src = 0;
        long file = 16 * PAGE;
        for (final Step s : steps) {
            src += s.jumpSource() ? PAGE : 0;
            file += s.jumpFile() ? 3 * PAGE : 0;
            final long length = s.pages() * PAGE;
            final AllocationRef alloc = new AllocationRef(new PrefixKey(s.key() + 1, 0), s.key() + 1, 0, 1 << 20);
            out.add(new SpanPiece(alloc, src, file, length));
            src += length;
            file += length;
        }
        return out;
    }

    /** Source page to file page, for every page of every span, as sent. */
    private static NavigableMap<Long, Long> byteMap(final List<SpanPiece> pieces) {
        final TreeMap<Long, Long> map = new TreeMap<>();
        for (final SpanPiece p : pieces) {
            for (long at = 0; at < p.lengthBytes(); at += PAGE) {
                map.put(p.srcOffset() + at, p.fileOffset() + at);
            }
        }
        return map;
    }

    private static NavigableMap<Long, Long> byteMapOfSpans(final List<StoreSpan> spans) {
        final TreeMap<Long, Long> map = new TreeMap<>();
        for (final StoreSpan s : spans) {
            for (long at = 0; at < s.lengthBytes(); at += PAGE) {
                map.put(s.srcOffset() + at, s.fileOffset() + at);
            }
        }
        return map;
    }
}
