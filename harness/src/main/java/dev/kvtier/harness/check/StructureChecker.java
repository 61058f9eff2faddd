package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Invariant 2: entries are pairwise disjoint, and the core's position index holds exactly the resident entries.
 * A shadow map of entries is built from EntryInserted and EntryEvicted: an insert may not overlap a shadow entry
 * (the core must have dropped overlaps first), an eviction must name a shadow entry exactly. After every event the
 * core's entry count and resident bytes (read through {@code coreEntries}/{@code coreResident}) must equal the
 * shadow's; the full map is compared at the end of the run.
 */
public final class StructureChecker implements Checker {
    private final TreeMap<Long, Long> entries = new TreeMap<>();
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
                final Map.Entry<Long, Long> below = entries.floorEntry(e.fileOffset() + e.lengthBytes() - 1);
                if (!(below == null || below.getKey() + below.getValue() <= e.fileOffset())) {
                    ctx.fail(Invariant.ENTRIES_DISJOINT,
                        "entry [" + e.fileOffset() + ", +" + e.lengthBytes() + ") overlaps resident ["
                            + (below == null ? 0 : below.getKey()) + ", +" + (below == null ? 0 : below.getValue())
                            + ")");
                }
                entries.put(e.fileOffset(), e.lengthBytes());
                resident += e.lengthBytes();
            }
            case CoreEvent.EntryEvicted e -> {
                final Long len = entries.remove(e.fileOffset());
                if (!(len != null && len == e.lengthBytes())) {
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
                "core index holds " + coreEntries.getAsLong() + " entries, " + entries.size() + " are resident");
        }
        if (!(coreResident.getAsLong() == resident)) {
            ctx.fail(Invariant.ENTRIES_DISJOINT,
                "core says " + coreResident.getAsLong() + " B resident, events say " + resident);
        }
    }

    /** The shadow map, offset to length (for the end-of-run comparison). */
    public NavigableMap<Long, Long> shadow() {
        return new TreeMap<>(entries);
    }
}
