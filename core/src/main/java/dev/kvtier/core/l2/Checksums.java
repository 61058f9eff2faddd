package dev.kvtier.core.l2;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import dev.kvtier.core.span.StoreSpan;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.SpanPiece;

/**
 * Per-slot checksums (docs/design/STORAGE-CORE.md 6), all in one place: a store takes the checksum of every whole slot
 * it puts in L1 (from the pool, through the {@link Memory} port) and keeps it with the slot's live chunk in the
 * directory; a read from L2 takes the sums its slots must have when it is issued and checks each slot when it lands. A
 * mismatch fails the load and evicts the chunk holding the slot from the directory.
 *
 * <p>The sums live in the chunks ({@link Chunk#record}, {@link Chunk#forget}), because a chunk is what the crash-safe
 * index persists and recovers with them; only this class writes or reads them during a run. The tiered store makes
 * the one instance and its operations call it.
 */
public final class Checksums {
    private final long slotBytes;
    private final EventSink sink;
    private final Memory memory;
    private final MemoryRegion pool;
    private final L2Directory directory;
    private long mismatches;

    /**
     * @param memory the memory the L1 pool is in
     * @param pool   the L1 pool region, where stored slots are put and read slots land
     */
    public Checksums(final long slotBytes, final EventSink sink, final Memory memory, final MemoryRegion pool,
                     final L2Directory directory) {
        if (slotBytes <= 0) {
            throw new IllegalArgumentException("slotBytes must be positive, got " + slotBytes);
        }
        this.slotBytes = slotBytes;
        this.sink = sink;
        this.memory = memory;
        this.pool = pool;
        this.directory = directory;
    }

    /** Keeps the checksum of every whole slot a stored span piece covers (a partly covered slot becomes unknown). */
    public void record(final StoreSpan span, final long poolOffset) {
        for (final SpanPiece p : span.pieces()) {
            final long first = p.fileOffset() / slotBytes;
            final long last = (p.fileEnd() - 1) / slotBytes;
            assert first <= last : "empty span piece at " + p.fileOffset();
            for (long slot = first; slot <= last; slot++) {
                final long from = slot * slotBytes;
                final int s = Math.toIntExact(slot);
                if (from >= p.fileOffset() && from + slotBytes <= p.fileEnd()) {
                    final long sum = memory.checksum(pool, poolOffset + from - span.fileOffset(), slotBytes);
                    keep(p.alloc(), s, sum);
                } else {
                    forget(p.alloc(), s);
                }
            }
        }
    }

    /** Keeps {@code sum} for slot {@code slot} (a file slot) of a current allocation; a no-op otherwise. */
    void keep(final AllocationRef ref, final int slot, final long sum) {
        final Chunk c = directory.current(ref);
        if (c != null && slot >= c.startSlot && slot < c.endSlot()) {
            c.record(slot - c.startSlot, sum);
        }
    }

    /** Forgets the checksum of a slot that a store covered only in part (its content is no longer known). */
    void forget(final AllocationRef ref, final int slot) {
        final Chunk c = directory.current(ref);
        if (c != null && slot >= c.startSlot && slot < c.endSlot()) {
            c.forget(slot - c.startSlot);
        }
    }

    /**
     * True when {@code piece} covers whole slots of its live allocation, each with a kept checksum that
     * {@code source}'s bytes for it have: a store that writes again exactly the bytes the allocation holds. The one
     * store the server boundary lets into a committed allocation (docs/design/STORAGE-CORE.md 4.2).
     */
    public boolean sameAsKept(final SpanPiece piece, final MemoryRegion source) {
        final Chunk c = directory.current(piece.alloc());
        if (c == null || piece.fileOffset() % slotBytes != 0 || piece.lengthBytes() % slotBytes != 0) {
            return false;
        }
        for (long at = 0; at < piece.lengthBytes(); at += slotBytes) {
            final int i = Math.toIntExact((piece.fileOffset() + at) / slotBytes) - c.startSlot;
            if (i < 0 || i >= c.slotCount || !c.known(i)
                || c.sum(i) != memory.checksum(source, piece.srcOffset() + at, slotBytes)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The checksums the slots of {@code [fileOffset, +lengthBytes)} must have now: slot i's in {@code sums[i]} where
     * {@code known[i]} (both arrays hold exactly the read's slots).
     */
    public void expected(final long fileOffset, final long lengthBytes, final long[] sums, final boolean[] known) {
        assert fileOffset % slotBytes == 0 : "read at " + fileOffset + " does not start at a slot";
        assert lengthBytes % slotBytes == 0 : "read of " + lengthBytes + " B is not whole slots";
        final int slots = Math.toIntExact(lengthBytes / slotBytes);
        if (sums.length != slots || known.length != slots) {
            throw new IllegalArgumentException("read of " + slots + " slots, arrays of " + sums.length + " and "
                + known.length);
        }
        expectedSums(Math.toIntExact(fileOffset / slotBytes), sums, known);
    }

    /**
     * The checksums the live chunks keep for file slots {@code firstSlot} on, as many as {@code sums} holds: slot
     * {@code firstSlot + i}'s in {@code sums[i]} where {@code known[i]} (primitives: no boxed Long, no list a slot).
     */
    void expectedSums(final int firstSlot, final long[] sums, final boolean[] known) {
        for (int i = 0; i < sums.length; i++) {
            final Chunk c = directory.covering(firstSlot + i);
            known[i] = c != null && c.known(firstSlot + i - c.startSlot);
            sums[i] = known[i] ? c.sum(firstSlot + i - c.startSlot) : 0;
        }
    }

    /** Checks slot {@code slotIndex} of a read, landed at {@code poolOffset}, against its expected checksum. */
    public boolean verify(final long loadId, final long poolOffset, final long fileOffset, final int slotIndex,
                          final boolean known, final long expected) {
        final long sum = memory.checksum(pool, poolOffset, slotBytes);
        if (known && expected == sum) {
            return true;
        }
        mismatches++;
        sink.emit(new CoreEvent.ChecksumMismatch(loadId, fileOffset, slotBytes, slotIndex));
        return false;
    }

    /** A read failed its checksum: the chunk holding the slot at {@code fileOffset} leaves the directory. */
    public void evictCorrupt(final long fileOffset) {
        directory.evictCorrupt(Math.toIntExact(fileOffset / slotBytes));
    }

    public long mismatches() {
        return mismatches;
    }

    /**
     * The first file slot at or after {@code fromSlot} of {@code ref}'s live chunk whose checksum is unknown (no store
     * covered it whole), or -1 (also when {@code ref} is not current).
     */
    public int nextUnknownSlot(final AllocationRef ref, final int fromSlot) {
        final Chunk c = directory.current(ref);
        if (c == null) {
            return -1;
        }
        for (int slot = Math.max(fromSlot, c.startSlot); slot < c.endSlot(); slot++) {
            if (!c.known(slot - c.startSlot)) {
                return slot;
            }
        }
        return -1;
    }
}
