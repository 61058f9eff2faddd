package dev.kvtier.core.l1;

import dev.kvtier.core.util.LongSortedMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * The L1 entry map: non-overlapping entries by L2 file offset. The position map (this tree) holds exactly the
 * resident entries; {@link #residentBytes()} is the sum of their lengths. The tree is a {@link LongSortedMap} (keyed by
 * the primitive offset: no boxed key or node per entry; a per-slot run keeps ~88,000 entries).
 */
public final class EntryMap {
    private final LongSortedMap<Entry> byOffset = new LongSortedMap<>();
    private long residentBytes;

    /**
     * Entries overlapping {@code [from, to)}, in file order (unmodifiable). The usual answer, none, costs two tree
     * searches and no list or sub-map view (an insert asks twice: once to drop overlaps, once to check).
     */
    public List<Entry> overlapping(final long from, final long to) {
        if (from > to) {
            throw new IllegalArgumentException("range [" + from + ", " + to + ") ends before it starts");
        }
        final Entry before = byOffset.lowerValue(from);
        final boolean coversFrom = before != null && before.fileEnd() > from;
        if (!coversFrom && !byOffset.anyIn(from, to)) {
            return List.of();
        }
        final List<Entry> out = new ArrayList<>();
        if (coversFrom) {
            out.add(before);
        }
        byOffset.valuesIn(from, to, out);
        return Collections.unmodifiableList(out);
    }

    /** Adds an entry; overlapping entries must have been removed first. */
    public void insert(final Entry entry) {
        if (!overlapping(entry.fileOffset, entry.fileEnd()).isEmpty()) {
            throw new IllegalStateException("inserting " + entry + " over resident entries");
        }
        byOffset.put(entry.fileOffset, entry);
        entry.slice.resident = true;
        residentBytes += entry.lengthBytes;
    }

    /** Removes a resident entry; its slice is no longer resident. */
    public void remove(final Entry entry) {
        if (byOffset.remove(entry.fileOffset) != entry) {
            throw new IllegalStateException("removing " + entry + " which is not resident");
        }
        entry.slice.resident = false;
        residentBytes -= entry.lengthBytes;
    }

    public long residentBytes() {
        return residentBytes;
    }

    public int size() {
        return byOffset.size();
    }

    /** Resident entries in file order (a copy, unmodifiable). */
    public Collection<Entry> inFileOrder() {
        return byOffset.values();
    }
}
