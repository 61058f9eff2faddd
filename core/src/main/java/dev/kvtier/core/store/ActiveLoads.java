package dev.kvtier.core.store;

import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.value.AllocationRef;
import java.util.ArrayList;
import java.util.List;

/**
 * The loads in progress and their L2 reads in flight, kept for the two hazards of docs/design/STORAGE-CORE.md 6: a
 * store over a range supersedes the in-flight promotions of it (they are not inserted), and a ring eviction of a chunk
 * a load has leased fails that load cleanly (the directory tells {@link #chunkEvicted}).
 */
final class ActiveLoads {
    private final long slotBytes;
    private final List<LoadOp> loads = new ArrayList<>();
    private final List<LoadOp.Read> reads = new ArrayList<>();

    ActiveLoads(final long slotBytes) {
        this.slotBytes = slotBytes;
    }

    void started(final LoadOp load) {
        loads.add(load);
    }

    void finished(final LoadOp load) {
        loads.remove(load);
    }

    /** A read was issued: from now on a store over its range supersedes it. */
    void readIssued(final LoadOp.Read read) {
        assert read.slice != null : "read of " + read.fileOffset + " issued without a slice";
        reads.add(read);
    }

    /** A read completed (with whatever result). */
    void readLanded(final LoadOp.Read read) {
        if (!reads.remove(read)) {
            throw new IllegalStateException("read of " + read.fileOffset + " was not in flight");
        }
    }

    /** A store touched {@code [from, to)}: in-flight promotions of it must not be inserted. */
    void supersede(final long from, final long to) {
        for (final LoadOp.Read r : reads) {
            if (r.fileOffset < to && from < r.fileOffset + r.lengthBytes) {
                r.superseded = true;
            }
        }
    }

    /** The directory evicted a chunk from the ring: its reads are superseded, the loads leasing it fail. */
    void chunkEvicted(final AllocationRef ref, final RingEvictReason reason) {
        final long from = ref.fileOffset(slotBytes);
        supersede(from, from + ref.lengthBytes(slotBytes));
        for (final LoadOp load : List.copyOf(loads)) {
            if (load.holdsLease(ref)) {
                load.leaseRevoked(ref);
            }
        }
    }

    boolean isEmpty() {
        return loads.isEmpty();
    }

    int count() {
        return loads.size();
    }
}
