package dev.kvtier.core.l1;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.config.ReplacementKind;
import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.port.Memory;
import dev.kvtier.core.port.MemoryRegion;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * L1 as one part of the tiered store: the pool region and its allocator, the entry map, the replacement policy and
 * the admission arithmetic, with every transition of a slice's life in one place. A slice is reserved (leased from
 * the pool), filled, inserted as an entry (dropping overlaps), held by pending L2 writes, evicted (by reservation,
 * trim or overlap) and freed exactly once: when it is neither resident nor held by a pending write.
 *
 * <p>Pool accounting: every resident byte lies in a leased slice ({@code residentBytes <= pool used}), and resident
 * bytes never exceed {@code l1Bytes}. Both are checked at every transition that changes them.
 */
public final class L1Cache {
    private final long l1Bytes;
    private final Memory memory;
    private final EventSink sink;
    private final BooleanSupplier othersWaiting;
    private final L1Pool pool;
    private final MemoryRegion region;
    private final Admission admission;
    private final ReplacementPolicy policy;
    private final EntryMap entries = new EntryMap();

    /**
     * Allocates the pool region ({@code config.l1PoolBytes()}) from {@code memory}.
     *
     * @param othersWaiting true while operations wait for memory: a new reservation then queues behind them
     */
    public L1Cache(final CoreConfig config, final Memory memory, final EventSink sink,
                   final BooleanSupplier othersWaiting) {
        this.l1Bytes = config.l1Bytes();
        this.memory = memory;
        this.sink = sink;
        this.othersWaiting = othersWaiting;
        this.pool = new L1Pool(config.l1PoolBytes());
        this.region = memory.allocate("l1-pool", config.l1PoolBytes());
        this.admission = Admission.of(config.l1Bytes(), config.headroomRatio());
        this.policy = config.replacement() == ReplacementKind.PREFIX_LRU ? new PrefixLruPolicy() : new LruPolicy();
        if (pool.capacityBytes() < l1Bytes) {
            throw new IllegalStateException("pool of " + pool.capacityBytes() + " B is smaller than l1Bytes "
                + l1Bytes);
        }
    }

    /** Bytes one reservation may take at most: what L1 can hold. */
    public long maxReservationBytes() {
        return l1Bytes; // the pool is align4096(l1Bytes), never smaller
    }

    /**
     * Reserves an L1 slice of {@code lengthBytes}: evicts headroom first, then by the policy, until the resident
     * budget and the pool both have room. Returns null when the caller must wait for a pending L2 write (and park).
     * Operations already waiting for memory go first: a newcomer gets null while any waits.
     *
     * <p>{@code mayWait} (may be null) runs once, before the first eviction that cannot give the pool any memory
     * (the victim's slice is held by a pending write and only the pool is short): from there on the reservation may
     * have to wait for memory, so a store seals its open write batch then (docs/design/STORAGE-CORE.md 4.3).
     */
    public Slice reserve(final long lengthBytes, final Runnable mayWait) {
        if (lengthBytes > maxReservationBytes()) {
            throw new IllegalArgumentException("reservation of " + lengthBytes + " B exceeds L1 ("
                + maxReservationBytes() + " B)");
        }
        assert lengthBytes > 0 : "reservation of " + lengthBytes + " B";
        if (othersWaiting.getAsBoolean()) {
            return null;
        }
        Runnable hook = mayWait;
        while (true) {
            final boolean budgetOk = entries.residentBytes() + lengthBytes <= l1Bytes;
            if (budgetOk) {
                final long offset = pool.allocate(lengthBytes);
                if (offset != L1Pool.NO_SPACE) {
                    final Slice slice = new Slice(offset, lengthBytes);
                    assert entries.residentBytes() + slice.lengthBytes <= pool.usedBytes()
                        : "resident bytes outside leased slices";
                    return slice;
                }
            }
            final Entry victim = policy.victim();
            if (victim == null) {
                return null;
            }
            if (hook != null && budgetOk && victim.slice.pendingWrites > 0) {
                hook.run();
                hook = null;
            }
            evict(victim, L1EvictReason.RESERVE);
        }
    }

    /** Copies {@code lengthBytes} of {@code source} at {@code srcOffset} into a reserved slice. */
    public void copyIn(final MemoryRegion source, final long srcOffset, final Slice slice, final long lengthBytes) {
        assert !slice.freed : "copy into freed slice at " + slice.poolOffset;
        assert lengthBytes <= slice.lengthBytes : "copy of " + lengthBytes + " B into a slice of " + slice.lengthBytes;
        memory.copy(source, srcOffset, region, slice.poolOffset, lengthBytes);
    }

    /** Copies {@code lengthBytes} at {@code poolOffset} of the pool out to {@code dest}. */
    public void copyOut(final long poolOffset, final MemoryRegion dest, final long destOffset,
                        final long lengthBytes) {
        memory.copy(region, poolOffset, dest, destOffset, lengthBytes);
    }

    /** An I/O segment over {@code [poolOffset, +lengthBytes)} of the pool region. */
    public IoSegment segment(final long poolOffset, final long lengthBytes) {
        return new IoSegment(region, poolOffset, lengthBytes);
    }

    /** Resident entries overlapping {@code [from, to)}, in file order. */
    public List<Entry> overlapping(final long from, final long to) {
        return entries.overlapping(from, to);
    }

    /** An entry was read: it becomes most recent. */
    public void hit(final Entry entry) {
        assert entry.slice.resident : "hit on " + entry + " which is not resident";
        policy.onHit(entry);
    }

    /** A fresh group epoch for a grouped store or load. */
    public long nextEpoch() {
        return policy.nextEpoch();
    }

    /** Removes an entry from the map (and policy); frees its slice unless a pending write still owns it. */
    public void evict(final Entry entry, final L1EvictReason reason) {
        final long before = entries.residentBytes();
        policy.onRemove(entry);
        entries.remove(entry);
        final Slice s = entry.slice;
        assert !s.resident : "evicted " + entry + " is still resident";
        assert entries.residentBytes() == before - entry.lengthBytes : "resident bytes after evicting " + entry;
        sink.emit(new CoreEvent.EntryEvicted(entry.fileOffset, entry.lengthBytes, s.poolOffset, entry.headroom,
            s.pendingWrites > 0, reason));
        releaseIfUnused(s);
    }

    /** Drops every resident entry overlapping {@code [from, to)}. */
    public void dropOverlaps(final long from, final long to) {
        for (final Entry e : entries.overlapping(from, to)) {
            evict(e, L1EvictReason.OVERLAP);
        }
    }

    /** Inserts an entry for a slice (dropping overlaps first). */
    public Entry insert(final long opId, final long fileOffset, final long srcOffset, final Slice slice,
                        final boolean headroom, final long groupEpoch, final int prefixIndex) {
        if (slice.freed || slice.resident) {
            throw new IllegalStateException("inserting slice at " + slice.poolOffset + " that is "
                + (slice.freed ? "freed" : "resident"));
        }
        dropOverlaps(fileOffset, fileOffset + slice.lengthBytes);
        final Entry e = new Entry(fileOffset, slice.lengthBytes, slice, headroom);
        entries.insert(e);
        policy.onInsert(e, groupEpoch, prefixIndex);
        sink.emit(new CoreEvent.EntryInserted(opId, fileOffset, slice.lengthBytes, slice.poolOffset, srcOffset,
            headroom, prefixIndex));
        if (entries.residentBytes() > l1Bytes) {
            throw new IllegalStateException("resident " + entries.residentBytes() + " B exceeds l1Bytes " + l1Bytes);
        }
        assert entries.residentBytes() <= pool.usedBytes() : "resident bytes outside leased slices";
        return e;
    }

    /** A pending L2 write now holds {@code slice}: it is not freed before that write finishes. */
    public void holdForWrite(final Slice slice) {
        slice.addPendingWrite();
    }

    /** A pending L2 write that held {@code slice} finished: frees it if nothing else holds it. */
    public void writeFinished(final Slice slice) {
        slice.removePendingWrite();
        releaseIfUnused(slice);
    }

    /** Frees a slice that is neither resident nor owned by a pending write. Exactly once. */
    public void releaseIfUnused(final Slice slice) {
        if (slice.resident || slice.pendingWrites > 0 || slice.freed) {
            return;
        }
        final long usedBefore = pool.usedBytes();
        slice.markFreed();
        pool.free(slice.poolOffset, slice.lengthBytes);
        assert pool.usedBytes() < usedBefore : "freeing slice at " + slice.poolOffset + " freed nothing";
        assert entries.residentBytes() <= pool.usedBytes() : "resident bytes outside leased slices";
        sink.emit(new CoreEvent.SliceFreed(slice.poolOffset, slice.lengthBytes));
    }

    /** After a grouped store of {@code storedBytes}: evicts down to the admission's trim target. */
    public void trim(final long storeId, final long storedBytes) {
        final long target = admission.trimTarget(storedBytes);
        final long before = entries.residentBytes();
        int evicted = 0;
        while (entries.residentBytes() > target) {
            final Entry victim = policy.victim();
            if (victim == null) {
                break;
            }
            evict(victim, L1EvictReason.TRIM);
            evicted++;
        }
        assert entries.residentBytes() <= before : "trim grew L1";
        assert entries.residentBytes() <= target || policy.victim() == null : "trim stopped above its target";
        sink.emit(new CoreEvent.Trimmed(storeId, target, before, entries.residentBytes(), evicted));
    }

    /** Releases the pool region. */
    public void close() {
        memory.free(region);
    }

    // ---------------------------------------------------------------- inspection

    public long residentBytes() {
        return entries.residentBytes();
    }

    public Admission admission() {
        return admission;
    }

    /** A read-only view for checkers and tests. */
    public L1Access access() {
        return new L1Access(pool, entries, policy);
    }

    /** One line on pool and resident bytes, for error messages. */
    public String describe() {
        return "pool " + pool.usedBytes() + "/" + pool.capacityBytes() + " used, resident " + entries.residentBytes();
    }

    /** The pool region (I/O segments and checksums name it). */
    public MemoryRegion region() {
        return region;
    }
}
