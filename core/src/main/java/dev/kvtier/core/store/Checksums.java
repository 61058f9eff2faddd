package dev.kvtier.core.store;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.l1.L1Cache;
import dev.kvtier.core.l2.L2Directory;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.span.StoreSpan;
import dev.kvtier.core.value.SpanPiece;

/**
 * Per-slot checksums (STORAGE-CORE.md 6): a store records the checksum of every whole slot it puts in L1 (in the
 * directory, beside the allocation); a read from L2 takes the sums its slots must have when it is issued and checks
 * each slot when it lands. A mismatch fails the load and evicts the chunk holding the slot from the directory.
 */
final class Checksums {
    private final long slotBytes;
    private final EventSink sink;
    private final L1Cache l1;
    private final L2Directory directory;
    private long mismatches;

    Checksums(final long slotBytes, final EventSink sink, final L1Cache l1, final L2Directory directory) {
        if (slotBytes <= 0) {
            throw new IllegalArgumentException("slotBytes must be positive, got " + slotBytes);
        }
        this.slotBytes = slotBytes;
        this.sink = sink;
        this.l1 = l1;
        this.directory = directory;
    }

    /** Keeps the checksum of every whole slot a stored span piece covers (a partly covered slot becomes unknown). */
    void record(final StoreSpan span, final long poolOffset) {
        for (final SpanPiece p : span.pieces()) {
            final long first = p.fileOffset() / slotBytes;
            final long last = (p.fileEnd() - 1) / slotBytes;
            assert first <= last : "empty span piece at " + p.fileOffset();
            for (long slot = first; slot <= last; slot++) {
                final long from = slot * slotBytes;
                final int s = Math.toIntExact(slot);
                if (from >= p.fileOffset() && from + slotBytes <= p.fileEnd()) {
                    final long sum = l1.checksum(poolOffset + from - span.fileOffset(), slotBytes);
                    directory.recordChecksum(p.alloc(), s, sum);
                } else {
                    directory.forgetChecksum(p.alloc(), s);
                }
            }
        }
    }

    /**
     * The checksums the slots of {@code [fileOffset, +lengthBytes)} must have now: slot i's in {@code sums[i]} where
     * {@code known[i]} (both arrays hold exactly the read's slots).
     */
    void expected(final long fileOffset, final long lengthBytes, final long[] sums, final boolean[] known) {
        assert fileOffset % slotBytes == 0 : "read at " + fileOffset + " does not start at a slot";
        assert lengthBytes % slotBytes == 0 : "read of " + lengthBytes + " B is not whole slots";
        final int slots = Math.toIntExact(lengthBytes / slotBytes);
        if (sums.length != slots || known.length != slots) {
            throw new IllegalArgumentException("read of " + slots + " slots, arrays of " + sums.length + " and "
                + known.length);
        }
        directory.expectedSums(Math.toIntExact(fileOffset / slotBytes), sums, known);
    }

    /** Checks slot {@code slotIndex} of a read, landed at {@code poolOffset}, against its expected checksum. */
    boolean verify(final long loadId, final long poolOffset, final long fileOffset, final int slotIndex,
                   final boolean known, final long expected) {
        final long sum = l1.checksum(poolOffset, slotBytes);
        if (known && expected == sum) {
            return true;
        }
        mismatches++;
        sink.emit(new CoreEvent.ChecksumMismatch(loadId, fileOffset, slotBytes, slotIndex));
        return false;
    }

    /** A read failed its checksum: the chunk holding the slot at {@code fileOffset} leaves the directory. */
    void evictCorrupt(final long fileOffset) {
        directory.evictCorrupt(Math.toIntExact(fileOffset / slotBytes));
    }

    long mismatches() {
        return mismatches;
    }
}
