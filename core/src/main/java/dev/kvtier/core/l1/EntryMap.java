package dev.kvtier.core.l1;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The L1 entry map: non-overlapping entries by L2 file offset. The position index (this tree) holds exactly the
 * resident entries; {@link #residentBytes()} is the sum of their lengths.
 */
public final class EntryMap {
    private final TreeMap<Long, Entry> byOffset = new TreeMap<>();
    private long residentBytes;

    /**
     * Entries overlapping {@code [from, to)}, in file order (unmodifiable). The usual answer, none, costs two tree
     * searches and no list or sub-map view (an insert asks twice: once to drop overlaps, once to check).
     */
    public List<Entry> overlapping(final long from, final long to) {
        if (from > to) {
            throw new IllegalArgumentException("range [" + from + ", " + to + ") ends before it starts");
        }
        final Map.Entry<Long, Entry> before = byOffset.lowerEntry(from);
        final boolean coversFrom = before != null && before.getValue().fileEnd() > from;
        final Long next = byOffset.ceilingKey(from);
        if (!coversFrom && (next == null || next >= to)) {
            return List.of();
        }
        final List<Entry> out = new ArrayList<>();
        if (coversFrom) {
            out.add(before.getValue());
        }
        for (final Entry e : byOffset.subMap(from, true, to, false).values()) {
            out.add(e);
        }
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

    /** Resident entries in file order (a view; do not modify the map while iterating). */
    public Collection<Entry> inFileOrder() {
        return byOffset.values();
    }
}
