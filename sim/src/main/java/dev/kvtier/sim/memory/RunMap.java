package dev.kvtier.sim.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The provenance of a byte space (a memory region or the L2 file) as disjoint runs. A run {@code [start, start +
 * length)} holds the content of {@code tag} from position {@code pos}: byte {@code start + i} is byte
 * {@code pos + i} of that tag's content. Bytes outside every run were never written (tag 0). Runs are not merged,
 * so the map stays proportional to the number of distinct writes, not to the bytes: 225 GiB of slots simulate in
 * a few hundred thousand runs.
 */
public final class RunMap {
    /** One run's content. */
    public record Run(long lengthBytes, long tag, long pos) { }

    private final TreeMap<Long, Run> runs = new TreeMap<>();

    /** Forgets {@code [from, to)}, splitting runs that cross either end. */
    public void clear(final long from, final long to) {
        if (from >= to) {
            return;
        }
        splitAt(from);
        splitAt(to);
        runs.subMap(from, true, to, false).clear();
    }

    /** Records that {@code [start, start + length)} holds {@code tag} from position {@code pos}. */
    public void put(final long start, final long lengthBytes, final long tag, final long pos) {
        clear(start, start + lengthBytes);
        runs.put(start, new Run(lengthBytes, tag, pos));
    }

    /** Copies the provenance of {@code src [srcFrom, srcFrom + length)} to {@code [dstFrom, ...)} of this map. */
    public void copyFrom(final RunMap src, final long srcFrom, final long dstFrom, final long lengthBytes) {
        final List<long[]> pieces = src.pieces(srcFrom, srcFrom + lengthBytes);
        clear(dstFrom, dstFrom + lengthBytes);
        for (final long[] p : pieces) {
            runs.put(dstFrom + (p[0] - srcFrom), new Run(p[1], p[2], p[3]));
        }
    }

    /**
     * The first offset in {@code [from, from + length)} whose content is not byte {@code offset - from} of
     * {@code tag}, or -1.
     */
    public long firstMismatch(final long from, final long lengthBytes, final long tag) {
        long expected = from;
        for (final long[] p : pieces(from, from + lengthBytes)) {
            if (p[0] != expected) {
                return expected;
            }
            if (p[2] != tag || p[3] != p[0] - from) {
                return p[0];
            }
            expected = p[0] + p[1];
        }
        return expected == from + lengthBytes ? -1 : expected;
    }

    /** The tag at {@code offset}, or 0 if never written. */
    public long tagAt(final long offset) {
        final Map.Entry<Long, Run> e = runs.floorEntry(offset);
        return e != null && e.getKey() + e.getValue().lengthBytes() > offset ? e.getValue().tag() : 0;
    }

    public int runCount() {
        return runs.size();
    }

    /** Pieces {start, length, tag, pos} of runs clipped to {@code [from, to)}, in order. */
    private List<long[]> pieces(final long from, final long to) {
        final List<long[]> out = new ArrayList<>();
        final Map.Entry<Long, Run> first = runs.floorEntry(from);
        final Long startKey = first != null && first.getKey() + first.getValue().lengthBytes() > from
            ? first.getKey() : Long.valueOf(from);
        for (final Map.Entry<Long, Run> e : runs.subMap(startKey, true, to, false).entrySet()) {
            final long s = e.getKey();
            final Run r = e.getValue();
            final long a = Math.max(s, from);
            final long b = Math.min(s + r.lengthBytes(), to);
            if (a < b) {
                out.add(new long[] {a, b - a, r.tag(), r.pos() + (a - s)});
            }
        }
        return out;
    }

    private void splitAt(final long at) {
        final Map.Entry<Long, Run> e = runs.floorEntry(at);
        if (e == null || e.getKey() == at) {
            return;
        }
        final long s = e.getKey();
        final Run r = e.getValue();
        if (s + r.lengthBytes() <= at) {
            return;
        }
        final long left = at - s;
        runs.put(s, new Run(left, r.tag(), r.pos()));
        runs.put(at, new Run(r.lengthBytes() - left, r.tag(), r.pos() + left));
    }
}
