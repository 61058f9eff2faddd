package dev.kvtier.core.l2;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.event.CoreEvent.SkipReason;
import dev.kvtier.core.index.IndexChunk;
import dev.kvtier.core.index.IndexLog;
import dev.kvtier.core.index.PersistedChunk;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.util.KeyTable;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The L2 directory over the slot ring, with two-phase publication: {@link #allocate} records a writer claim (the key is
 * not visible), {@link #commit} publishes it. One writer per key: a key that is claimed or committed is answered
 * {@code Skipped}. A claim is released only if uncommitted and still the same allocation. A commit for an
 * allocation that is no longer current is a counted no-op (late commit).
 *
 * <p>Loads lease their chunks ({@link #lease}). Our choice for a ring eviction of a leased chunk
 * (docs/design/STORAGE-CORE.md 6): allocation never waits; the chunk is evicted and the {@link Listener} is told, so
 * the tiered store fails those loads cleanly and discards their in-flight reads. This keeps allocation non-blocking and
 * bounded.
 *
 * <p>The listener hears of an eviction only once the operation that evicted is over (an allocation of every key
 * asked, an invalidation of the whole range): failing a load calls its client, which may call straight back into the
 * directory (a failed load is recomputed: it allocates), and that call must find the directory consistent, never in
 * the middle of placing an allocation or walking a range.
 *
 * <p>The key map ({@link KeyTable}) serves look-ups of single keys (refs are found in the ring); nothing iterates it.
 * The chunks' per-slot checksums are kept and read by {@link Checksums} alone.
 */
public final class L2Directory {
    private final long slotBytes;
    private final SlotRing ring;
    /** Sized at once for a chunk a slot, the most the ring holds. */
    private final KeyTable<Chunk> byKey;
    private final EventSink sink;
    private Listener listener = (ref, reason) -> {};
    private final ArrayDeque<Evicted> notices = new ArrayDeque<>();
    private int operations;
    private IndexLog log;
    private long nextAllocationId = 1;
    private long lateCommits;
    private long evictions;
    /** The keys seen once, under {@code L2Admission.SECOND_SIGHT}; null when every key is admitted. */
    private SeenOnce seenOnce;

    /** An eviction the listener has not heard of yet. */
    private record Evicted(AllocationRef ref, RingEvictReason reason) {}

    /** Told about every chunk that leaves the ring other than by release. */
    @FunctionalInterface
    public interface Listener {
        void chunkEvicted(AllocationRef ref, RingEvictReason reason);
    }

    public L2Directory(final long slotBytes, final int slotCount, final EventSink sink) {
        if (slotBytes <= 0) {
            throw new IllegalArgumentException("slotBytes must be positive, got " + slotBytes);
        }
        this.slotBytes = slotBytes;
        this.ring = new SlotRing(slotCount);
        this.byKey = KeyTable.forAtMost(slotCount);
        this.sink = sink;
    }

    /**
     * Admits a key only the second time it is asked for ({@code L2Admission.SECOND_SIGHT}), remembering the last
     * {@code l2Slots} keys seen once; set once, in the composition root.
     */
    public void admitOnSecondSight() {
        this.seenOnce = new SeenOnce(ring.slotCount());
    }

    /** Installs the one listener (the tiered store); wiring happens once, in the composition root. */
    public void setListener(final Listener newListener) {
        this.listener = newListener;
    }

    /** Installs the crash-safe index log: from now on every commit and every removal of a logged chunk is logged. */
    public void setIndexLog(final IndexLog indexLog) {
        this.log = indexLog;
    }

    /** The index log, or null until the server has opened the index (or for a directory used on its own). */
    public IndexLog indexLog() {
        return log;
    }

    public long slotBytes() {
        return slotBytes;
    }

    public int slotCount() {
        return ring.slotCount();
    }

    /** Longest committed prefix from key 0: stops at the first missing, uncommitted or other-model key. */
    public LookupResult lookup(final int modelId, final List<PrefixKey> keys) {
        final List<AllocationRef> prefix = new ArrayList<>();
        for (final PrefixKey key : keys) {
            final Chunk c = byKey.get(key.hi(), key.lo());
            if (c == null || !c.committed || c.modelId != modelId) {
                break;
            }
            prefix.add(c.ref());
        }
        sink.emit(new CoreEvent.Lookup(modelId, keys, prefix.size()));
        return new LookupResult(prefix);
    }

    /**
     * Claims {@code slotsPerKey} slots for each key, in order, in one batch (so a request's slots are normally
     * contiguous). Later allocations of the same batch may evict earlier ones when the batch is larger than the ring;
     * their spans then become stale.
     */
    public List<AllocationResult> allocate(final long requestId, final int modelId, final List<PrefixKey> keys,
                                           final int slotsPerKey) {
        sink.emit(new CoreEvent.AllocateRequested(requestId, modelId, keys, slotsPerKey));
        final List<AllocationResult> out = new ArrayList<>(keys.size());
        operations++;
        for (final PrefixKey key : keys) {
            out.add(allocateOne(requestId, modelId, key, slotsPerKey));
        }
        operationDone();
        return out;
    }

    private AllocationResult allocateOne(final long requestId, final int modelId, final PrefixKey key,
                                         final int slots) {
        final Chunk existing = byKey.get(key.hi(), key.lo());
        if (existing != null) {
            final SkipReason reason = existing.committed ? SkipReason.COMMITTED : SkipReason.CLAIMED;
            sink.emit(new CoreEvent.AllocationSkipped(requestId, key, reason));
            return new AllocationResult.Skipped(key, reason);
        }
        if (slots <= 0 || slots > ring.slotCount()) {
            sink.emit(new CoreEvent.AllocationSkipped(requestId, key, SkipReason.TOO_LARGE));
            return new AllocationResult.Skipped(key, SkipReason.TOO_LARGE);
        }
        if (seenOnce != null && !seenOnce.secondSight(key)) {
            sink.emit(new CoreEvent.AllocationSkipped(requestId, key, SkipReason.NOT_ADMITTED));
            return new AllocationResult.Skipped(key, SkipReason.NOT_ADMITTED);
        }
        final int start = ring.makeRoom(slots,
            from -> sink.emit(new CoreEvent.RingWrapped(from, ring.slotCount() - from)),
            (chunk, wrap) -> evict(chunk, wrap ? RingEvictReason.WRAP : RingEvictReason.SPACE));
        final Chunk chunk = new Chunk(key, modelId, nextAllocationId++, start, slots);
        ring.add(chunk);
        byKey.put(key.hi(), key.lo(), chunk);
        sink.emit(new CoreEvent.Allocated(requestId, key, chunk.allocationId, start, slots));
        return new AllocationResult.Claimed(chunk.ref());
    }

    /** Publishes each current, uncommitted allocation; anything else is a counted late commit. */
    public int commit(final List<AllocationRef> refs) {
        sink.emit(new CoreEvent.CommitRequested(refs));
        return publish(refs);
    }

    /** Makes each current, uncommitted allocation visible (logging it first if it is not yet); the rest are late. */
    public int publish(final List<AllocationRef> refs) {
        int committed = 0;
        for (final AllocationRef ref : refs) {
            final Chunk c = current(ref);
            if (c == null) {
                lateCommits++;
                sink.emit(new CoreEvent.LateCommit(ref.key(), ref.allocationId()));
                continue;
            }
            if (!c.committed) {
                if (!c.logged && log != null) {
                    // Logged first: the append may start a checkpoint at once, and its snapshot must hold the chunk.
                    c.logged = true;
                    log.appendCommit(c);
                }
                c.committed = true;
                committed++;
                sink.emit(new CoreEvent.Committed(ref.key(), ref.allocationId()));
            }
        }
        return committed;
    }

    /**
     * Durable mode, once the allocation's bytes are written and flushed: appends its COMMIT record (it becomes
     * visible with {@link #commit} once the record is durable). False when it is no longer current.
     */
    public boolean logCommit(final AllocationRef ref) {
        final Chunk c = current(ref);
        if (c == null) {
            return false;
        }
        if (!c.logged && log != null) {
            // Logged first: the append may start a checkpoint at once, and its snapshot must hold the chunk.
            c.logged = true;
            log.appendCommit(c);
        }
        return true;
    }

    /** Durable mode: the allocation could not be made durable; it is evicted, never visible. */
    public void refuse(final AllocationRef ref) {
        final Chunk c = current(ref);
        if (c != null && !c.committed) {
            operations++;
            evict(c, RingEvictReason.NOT_DURABLE);
            operationDone();
        }
    }

    /** A slot read back from L2 did not match: its chunk leaves the directory (a miss from now on, not wrong bytes). */
    void evictCorrupt(final int slot) {
        operations++;
        for (final Chunk c : ring.overlapping(slot, 1)) {
            evict(c, RingEvictReason.CORRUPT);
        }
        operationDone();
    }

    /**
     * Every chunk whose COMMIT record is logged, oldest first, as a checkpoint persists it: the live chunks themselves
     * (not copies), to be encoded at once and not kept.
     */
    public List<PersistedChunk> loggedChunks() {
        final List<PersistedChunk> out = new ArrayList<>(ring.liveChunks());
        for (Chunk c = ring.oldest(); c != null; c = c.newer) {
            if (c.logged) {
                out.add(c);
            }
        }
        return out;
    }

    /** Rebuilds the directory from recovered chunks (allocation order): all committed and logged. Only when empty. */
    public void restore(final List<IndexChunk> chunks) {
        final List<Chunk> rebuilt = new ArrayList<>(chunks.size());
        for (final IndexChunk r : chunks) {
            final Chunk c = new Chunk(r.key(), r.modelId(), r.allocationId(), r.startSlot(), r.slotCount());
            for (int i = 0; i < r.slotCount(); i++) {
                c.record(i, r.sum(i)); // an unknown slot keeps its sum too, as the persisted bytes say
                if (!r.known(i)) {
                    c.forget(i);
                }
            }
            c.committed = true;
            c.logged = true;
            rebuilt.add(c);
            nextAllocationId = Math.max(nextAllocationId, r.allocationId() + 1);
        }
        ring.restore(rebuilt);
        for (final Chunk c : rebuilt) {
            sink.emit(new CoreEvent.ChunkRecovered(c.key, c.modelId, c.allocationId, c.startSlot, c.slotCount));
            if (byKey.put(c.key.hi(), c.key.lo(), c) != null) {
                throw new IllegalArgumentException("recovered index holds key " + c.key + " twice");
            }
        }
    }

    /** Releases a writer claim if it is uncommitted and still the same allocation. */
    public boolean release(final AllocationRef ref) {
        final Chunk c = current(ref);
        final boolean ok = c != null && !c.committed && c.leases == 0;
        if (ok) {
            ring.remove(c);
            byKey.remove(c.key.hi(), c.key.lo());
            if (c.logged && log != null) {
                log.appendEvict(c.allocationId);
            }
        }
        sink.emit(new CoreEvent.ClaimReleased(ref, ok));
        return ok;
    }

    /** True while {@code ref} is the key's live allocation (claimed or committed). */
    public boolean isCurrent(final AllocationRef ref) {
        return current(ref) != null;
    }

    /** True while {@code ref} is the key's live, committed allocation. */
    public boolean isCommitted(final AllocationRef ref) {
        final Chunk c = current(ref);
        return c != null && c.committed;
    }

    /** Leases a committed allocation for a load; false if it is no longer current and committed. */
    public boolean lease(final AllocationRef ref) {
        final Chunk c = current(ref);
        if (c == null || !c.committed) {
            return false;
        }
        c.leases++;
        return true;
    }

    /** Ends a lease taken by {@link #lease}; a lease on an evicted chunk ended with it. */
    public void unlease(final AllocationRef ref) {
        final Chunk c = current(ref);
        if (c != null) {
            if (c.leases <= 0) {
                throw new IllegalStateException("unlease without lease: " + ref);
            }
            c.leases--;
        }
    }

    /** Evicts every live chunk overlapping the file range (after a failed L2 write): its bytes are not trusted. */
    public void invalidate(final long fileOffset, final long lengthBytes) {
        final int from = Math.toIntExact(fileOffset / slotBytes);
        final int to = Math.toIntExact((fileOffset + lengthBytes + slotBytes - 1) / slotBytes);
        operations++;
        for (final Chunk c : ring.overlapping(from, to - from)) {
            evict(c, RingEvictReason.WRITE_FAILED);
        }
        operationDone();
    }

    /** Live allocations, oldest first (for checkers and the replay state dump). */
    public List<AllocationRef> liveInAgeOrder() {
        final List<AllocationRef> out = new ArrayList<>();
        for (final Chunk c : ring.inAgeOrder()) {
            out.add(c.ref());
        }
        return out;
    }

    /** Loads leasing the live allocation {@code ref}; 0 if it is not live. */
    public int leases(final AllocationRef ref) {
        final Chunk c = current(ref);
        return c == null ? 0 : c.leases;
    }

    public int head() {
        return ring.head();
    }

    public int liveChunks() {
        return ring.liveChunks();
    }

    public long lateCommits() {
        return lateCommits;
    }

    public long evictions() {
        return evictions;
    }

    private void evict(final Chunk chunk, final RingEvictReason reason) {
        ring.remove(chunk);
        byKey.remove(chunk.key.hi(), chunk.key.lo());
        if (chunk.logged && log != null) {
            log.appendEvict(chunk.allocationId);
        }
        evictions++;
        sink.emit(new CoreEvent.RingEvicted(chunk.key, chunk.allocationId, chunk.startSlot, chunk.slotCount,
            chunk.committed, chunk.leases, reason));
        assert operations > 0 : "eviction of " + chunk.allocationId + " outside a directory operation";
        notices.add(new Evicted(chunk.ref(), reason));
    }

    /**
     * An operation that may evict is over: once no other is in progress, the listener hears of every eviction, in
     * order (it may start operations of its own; their evictions are heard after the ones before them). Not reached
     * when the operation threw: that core is dead (a bug, or a simulated power loss) and tells no one.
     */
    private void operationDone() {
        operations--;
        assert operations >= 0 : "directory operations " + operations;
        if (operations > 0) {
            return;
        }
        while (!notices.isEmpty()) {
            final Evicted e = notices.poll();
            listener.chunkEvicted(e.ref(), e.reason());
        }
    }

    /** The live chunk covering ring slot {@code slot}, or null. */
    Chunk covering(final int slot) {
        return ring.covering(slot);
    }

    /** The live chunk of {@code ref}, or null: by start slot in the ring (which holds what the key map holds). */
    Chunk current(final AllocationRef ref) {
        final Chunk c = ring.startingAt(ref.startSlot());
        return c != null && c.matches(ref) ? c : null;
    }
}
