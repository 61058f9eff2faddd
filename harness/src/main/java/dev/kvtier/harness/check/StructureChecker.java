package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.util.LongSortedMap;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Invariant 2: entries are pairwise disjoint, and the core's entry map holds exactly the resident entries.
 * A shadow map of entries is built from EntryInserted and EntryEvicted: an insert may not overlap a shadow entry
 * (the core must have dropped overlaps first), an eviction must name a shadow entry exactly. After every event the
 * core's entry count and resident bytes (read through {@code coreEntries}/{@code coreResident}) must equal the
 * shadow's; the full map is compared at the end of the run.
 */
public final class StructureChecker implements Checker {
    /** The shadow: each resident entry's insert event (its offset and length), by offset. */
    private final LongSortedMap<CoreEvent.EntryInserted> entries = new LongSortedMap<>();
    private final LongSupplier coreEntries;
    private final LongSupplier coreResident;
    private long resident;

    public StructureChecker(final LongSupplier coreEntries, final LongSupplier coreResident) {
        this.coreEntries = coreEntries;
        this.coreResident = coreResident;
    }

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.EntryInserted e -> {
                final CoreEvent.EntryInserted below = entries.floorValue(e.fileOffset() + e.lengthBytes() - 1);
                if (!(below == null || below.fileOffset() + below.lengthBytes() <= e.fileOffset())) {
                    ctx.fail(Invariant.ENTRIES_DISJOINT,
                        "entry [" + e.fileOffset() + ", +" + e.lengthBytes() + ") overlaps resident ["
                            + (below == null ? 0 : below.fileOffset()) + ", +"
                            + (below == null ? 0 : below.lengthBytes()) + ")");
                }
                entries.put(e.fileOffset(), e);
                resident += e.lengthBytes();
            }
            case CoreEvent.EntryEvicted e -> {
                final CoreEvent.EntryInserted was = entries.remove(e.fileOffset());
                if (!(was != null && was.lengthBytes() == e.lengthBytes())) {
                    ctx.fail(Invariant.ENTRIES_DISJOINT,
                        "evicted [" + e.fileOffset() + ", +" + e.lengthBytes() + ") is not a resident entry");
                }
                resident -= e.lengthBytes();
            }
            default -> {
                return;
            }
        }
        if (!(coreEntries.getAsLong() == entries.size())) {
            ctx.fail(Invariant.ENTRIES_DISJOINT,
                "core entry map holds " + coreEntries.getAsLong() + " entries, " + entries.size() + " are resident");
        }
        if (!(coreResident.getAsLong() == resident)) {
            ctx.fail(Invariant.ENTRIES_DISJOINT,
                "core says " + coreResident.getAsLong() + " B resident, events say " + resident);
        }
    }

    /** The shadow map, offset to length (for the end-of-run comparison). */
    public NavigableMap<Long, Long> shadow() {
        final TreeMap<Long, Long> out = new TreeMap<>();
        for (final CoreEvent.EntryInserted e : entries.values()) {
            out.put(e.fileOffset(), e.lengthBytes());
        }
        return out;
    }
}
