package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.RingEvictReason;
import dev.kvtier.core.util.KeyTable;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.SpanPiece;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Invariant 15, across crashes: it lives as long as the run, not as long as one core. It keeps, from events, the live
 * committed allocations. At a crash ({@link #crashed}) those become the keys that must survive in {@code durable}
 * mode, and in either mode when the crash came after a shutdown that completed durably ({@code ShutdownCompleted}
 * with {@code durable}: it flushed the data device and made every index record durable, so nothing committed before
 * it may be lost); after the restart ({@link #recovered}) each must be committed in the recovered index, and none of
 * them may later be dropped by a checksum mismatch unless the device was told to corrupt or misdirect data over its
 * slots (outside the durability claim). A survivor missing from the recovered index is excused only when the index
 * device was told to flip bytes on its media (also outside the claim). An allocation committed with a slot that no
 * admitted store piece covered whole is not owed: that slot has no checksum, so the key was never loadable
 * (docs/design/STORAGE-CORE.md 10; a client that stores part of a chunk, engine.shortSpecEvery). Wrong bytes served
 * after a restart (either mode) are reported to the checker by the workload driver as invariant 15
 * ({@link #afterCrash}).
 */
public final class CrashChecker implements Checker {
    private final boolean durable;
    private final Predicate<AllocationRef> faultedByDevice;
    private final BooleanSupplier indexFaulted;
    /** The ring's slots (the most allocations live at once), known from the first event; -1 before it. */
    private int ringSlots = -1;
    /**
     * Live allocations by id, for point look-ups only: ids come and leave in about ascending order, so a ring indexed
     * by id keeps the ones a run touches in cache (a hashed table missed the cache at every access); sized for the
     * ring at the first event (and again at a crash).
     */
    private IdRing<Live> allocations = new IdRing<>(0);
    /**
     * Live committed allocations by key, each with when its key was first committed (a key committed again keeps its
     * place): a crash lists them in that order, as an insertion-ordered map would, without a map entry per commit. The
     * same objects as {@link #allocations} holds: one object a live allocation, not a ref and a commit record.
     */
    private KeyTable<Live> committed = new KeyTable<>();
    private long nextOrder;
    private Map<PrefixKey, AllocationRef> mustSurvive = Map.of();
    private int crashes;
    private long survivorsChecked;
    private long survivorsExcused;
    private boolean shutDownDurably;
    /** False once told the run never crashes: then nothing can be owed, and nothing is kept. */
    private boolean tracking = true;
    /** The pieces of each store in progress, and the pieces its boundary or store refused (allocation, offset). */
    private final Map<Long, List<SpanPiece>> storing = new HashMap<>();
    private final Map<Long, List<long[]>> refused = new HashMap<>();

    /**
     * @param durable         the run's commit mode is {@code durable}
     * @param faultedByDevice whether the device corrupted or misdirected data over an allocation's slots
     */
    public CrashChecker(final boolean durable, final Predicate<AllocationRef> faultedByDevice) {
        this(durable, faultedByDevice, () -> false);
    }

    /**
     * @param durable         the run's commit mode is {@code durable}
     * @param faultedByDevice whether the device corrupted or misdirected data over an allocation's slots
     * @param indexFaulted    whether the index device has flipped bytes on its media so far
     */
    public CrashChecker(final boolean durable, final Predicate<AllocationRef> faultedByDevice,
                        final BooleanSupplier indexFaulted) {
        this.durable = durable;
        this.faultedByDevice = faultedByDevice;
        this.indexFaulted = indexFaulted;
    }

    /**
     * A live allocation as its Allocated (or ChunkRecovered) event gave it, and, while {@link #committed} holds it,
     * the order of its key's first commit. Its {@link AllocationRef} is made only when a crash needs it (a plain run
     * keeps one object a live allocation, which every young collection copies, instead of two).
     */
    private static final class Live {
        final PrefixKey key;
        final long allocationId;
        final int startSlot;
        final int slotCount;
        long order;
        /**
         * The slots an admitted store piece covered whole, bit i for slot i (none for a recovered chunk, which is owed
         * only when it was covered whole before the crash); a chunk of more than 64 slots counts as covered.
         */
        long covered;

        Live(final PrefixKey key, final long allocationId, final int startSlot, final int slotCount) {
            this.key = key;
            this.allocationId = allocationId;
            this.startSlot = startSlot;
            this.slotCount = slotCount;
        }

        /**
         * No admitted store piece left a slot of it uncovered: every slot was covered whole, or no store of it was
         * seen (events that carry no stores, as a checker test's, leave every allocation owed).
         */
        boolean whole() {
            return covered == 0 || slotCount > Long.SIZE
                || covered == (slotCount == Long.SIZE ? -1L : (1L << slotCount) - 1);
        }

        /** An admitted piece covered file slots {@code [first, end)}. */
        void cover(final long first, final long end) {
            for (long slot = Math.max(first, startSlot); slot < Math.min(end, startSlot + (long) slotCount)
                && slot - startSlot < Long.SIZE; slot++) {
                covered |= 1L << (slot - startSlot);
            }
        }

        AllocationRef ref() {
            return new AllocationRef(key, allocationId, startSlot, slotCount);
        }
    }

    /**
     * The run never crashes (no crash point, no crash during or after its shutdown): no durable commit is ever owed
     * (what this checker fails on comes only after a crash), so it stops keeping the live allocations, which for a
     * whole trace's ring of 1.4 million slots were 120 MiB of the heap. Call it before the first event.
     */
    public void neverCrashes() {
        if (ringSlots >= 0 || crashes > 0) {
            throw new IllegalStateException("neverCrashes() after the first event");
        }
        tracking = false;
    }

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        if (!tracking) {
            return;
        }
        if (ringSlots < 0) {
            ringSlots = SpecModel.ringSlots(ctx.config());
            allocations = new IdRing<>(ringSlots);
            committed = KeyTable.forAtMost(ringSlots);
        }
        switch (event) {
            case CoreEvent.Allocated e -> allocations.put(e.allocationId(),
                new Live(e.key(), e.allocationId(), e.startSlot(), e.slotCount()));
            case CoreEvent.ChunkRecovered e -> {
                // Only an acknowledged survivor stays owed across a later crash: a recovered chunk whose eviction
                // record was lost may point at slots overwritten since, and was never promised to anyone.
                final Live live = new Live(e.key(), e.allocationId(), e.startSlot(), e.slotCount());
                allocations.put(e.allocationId(), live);
                final AllocationRef owed = mustSurvive.get(e.key());
                if (owed != null && owed.allocationId() == e.allocationId()) {
                    commit(e.key(), live);
                }
            }
            case CoreEvent.Committed e -> {
                final Live live = allocations.get(e.allocationId());
                if (live != null) {
                    commit(e.key(), live);
                }
            }
            case CoreEvent.RingEvicted e -> {
                allocations.remove(e.allocationId());
                evicted(ctx, e);
            }
            case CoreEvent.ClaimReleased e -> {
                if (e.released()) {
                    allocations.remove(e.ref().allocationId());
                }
            }
            case CoreEvent.ShutdownCompleted e -> shutDownDurably = e.durable();
            case CoreEvent.IndexOpenRequested e -> shutDownDurably = false;
            default -> stores(ctx, event);
        }
    }

    /** Follows each store's pieces to its end, and marks the slots its admitted pieces covered whole. */
    private void stores(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.StoreSent e -> storing.put(e.storeId(), e.spans());
            case CoreEvent.SpanRejected e -> refused.computeIfAbsent(e.storeId(), k -> new ArrayList<>(1))
                .add(new long[] {e.allocationId(), e.fileOffset()});
            case CoreEvent.StoreCompleted e -> {
                final List<SpanPiece> pieces = storing.remove(e.storeId());
                final List<long[]> out = refused.remove(e.storeId());
                final long slot = ctx.config().slotBytes();
                for (int i = 0; pieces != null && i < pieces.size(); i++) {
                    final SpanPiece p = pieces.get(i);
                    final Live live = allocations.get(p.alloc().allocationId());
                    if (live != null && !refused(out, p)) {
                        live.cover((p.fileOffset() + slot - 1) / slot, p.fileEnd() / slot);
                    }
                }
            }
            default -> {
                // no effect on what must survive
            }
        }
    }

    private static boolean refused(final List<long[]> out, final SpanPiece p) {
        for (int i = 0; out != null && i < out.size(); i++) {
            if (out.get(i)[0] == p.alloc().allocationId() && out.get(i)[1] == p.fileOffset()) {
                return true;
            }
        }
        return false;
    }

    private void commit(final PrefixKey key, final Live live) {
        final Live before = committed.put(key.hi(), key.lo(), live);
        live.order = before == null ? nextOrder++ : before.order;
    }

    private void evicted(final CheckContext ctx, final CoreEvent.RingEvicted e) {
        final Live live = committed.get(e.key().hi(), e.key().lo());
        if (live != null && live.allocationId == e.allocationId()) {
            committed.remove(e.key().hi(), e.key().lo());
        }
        final AllocationRef survivor = mustSurvive.get(e.key());
        if (survivor == null || survivor.allocationId() != e.allocationId()) {
            return;
        }
        mustSurvive.remove(e.key());
        if (e.reason() == RingEvictReason.CORRUPT && !faultedByDevice.test(survivor)) {
            ctx.fail(Invariant.CRASH, "key " + e.key() + " (allocation " + e.allocationId() + ") was committed durably"
                + " (or before a clean shutdown) before crash " + crashes
                + " and failed its checksum after the restart,"
                + " with no device fault over its slots: a durable commit was lost");
        }
    }

    /**
     * The core crashed: in {@code durable} mode, or after a shutdown that completed durably, every live committed
     * allocation must be in the recovered index.
     */
    public void crashed() {
        if (!tracking) {
            throw new IllegalStateException("a crash in a run said never to crash");
        }
        crashes++;
        mustSurvive = new LinkedHashMap<>();
        if (durable || shutDownDurably) {
            final List<Live> live = new ArrayList<>(committed.size());
            committed.forEachValue(live::add);
            live.sort(Comparator.comparingLong(c -> c.order));
            for (final Live c : live) {
                if (c.whole()) { // a slot no store covered has no checksum: the key was never loadable
                    mustSurvive.put(c.key, c.ref());
                }
            }
        }
        // The dead core's allocations end here (no eviction event will come for them); the restarted core's
        // recovered chunks come back as ChunkRecovered.
        committed = KeyTable.forAtMost(Math.max(ringSlots, 0));
        allocations = new IdRing<>(Math.max(ringSlots, 0));
        storing.clear();
        refused.clear();
        shutDownDurably = false;
    }

    /**
     * The index was recovered; {@code isCommitted} says whether the recovered core holds an allocation committed.
     * Fails at the first durable commit that did not survive.
     */
    public void recovered(final CheckContext ctx, final Predicate<AllocationRef> isCommitted) {
        for (final AllocationRef ref : new ArrayList<>(mustSurvive.values())) {
            survivorsChecked++;
            if (!isCommitted.test(ref) && indexFaulted.getAsBoolean()) {
                survivorsExcused++;
                mustSurvive.remove(ref.key());
            } else if (!isCommitted.test(ref)) {
                ctx.fail(Invariant.CRASH, "key " + ref.key() + " (allocation " + ref.allocationId() + ") was committed"
                    + " durably (or before a clean shutdown) before crash " + crashes + " and is not in the recovered"
                    + " index");
            }
        }
    }

    /** True once the run crashed at least once: wrong bytes are then reported as invariant 15. */
    public boolean afterCrash() {
        return crashes > 0;
    }

    public int crashes() {
        return crashes;
    }

    /** Durable commits checked present after a restart. */
    public long survivorsChecked() {
        return survivorsChecked;
    }

    /** Survivors missing after a restart but excused: the index device had flipped bytes on its media. */
    public long survivorsExcused() {
        return survivorsExcused;
    }

    /** Allocations that must still survive (not yet evicted by the restarted core). */
    public List<AllocationRef> mustSurvive() {
        return List.copyOf(mustSurvive.values());
    }
}
