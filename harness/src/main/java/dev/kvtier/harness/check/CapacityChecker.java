package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.L1EvictReason;

/**
 * Invariants 1 and 3: resident bytes never exceed {@code l1Bytes}; bytes leased from the pool (resident,
 * pending-write-owned and in-flight reads) never exceed its capacity; every grouped store trims once before it
 * completes, and when it completes resident bytes are at most {@code max(bytes stored, saveTarget)} (checked at
 * completion too, so a trim done before the group was inserted is caught), and each trim aims at no less than
 * saveTarget and stops as soon as resident is at or below its target (every entry it evicts, it evicts while resident
 * is above the target: evicting more costs hit ratio, docs/design/STORAGE-CORE.md section 3, "trimmed once, down
 * to"). The admission arithmetic (H, saveTarget, the pool) is the checker's own ({@link SpecModel}, from
 * docs/design/STORAGE-CORE.md), never the core's. Built from EntryInserted/EntryEvicted, SliceReserved/SliceFreed,
 * Trimmed and StoreCompleted. Skips nothing.
 */
public final class CapacityChecker implements Checker {
    private final long poolBytes;
    private final long saveTargetBytes;
    private long resident;
    private long leased;
    private long lastTrimmedStore = Long.MIN_VALUE;
    /**
     * Resident bytes just before the last TRIM eviction of the trim in progress, or -1: a trim's evictions come
     * together, each followed at most by its slice's SliceFreed, and then its Trimmed; any other event ends them.
     */
    private long trimVictimResidentBefore = -1;
    private long trimVictimOffset;
    /** Bytes each open grouped store inserted (its own entries, not promotions); point look-ups only. */
    private final LongTally stored = new LongTally();

    public CapacityChecker(final CheckContext ctx) {
        this.poolBytes = SpecModel.poolBytes(ctx.config());
        this.saveTargetBytes = SpecModel.saveTargetBytes(ctx.config());
        final long h = SpecModel.headroomBytes(ctx.config());
        if (!(saveTargetBytes + h == poolBytes)) {
            ctx.fail(Invariant.TRIM_BOUND, "saveTarget + H != l1");
        }
        if (!(h >= 4096 && h % 4096 == 0)) {
            ctx.fail(Invariant.TRIM_BOUND, "H = " + h + " is not a multiple of 4096 >= 4096");
        }
    }

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        if (!(event instanceof CoreEvent.SliceFreed || event instanceof CoreEvent.Trimmed)) {
            trimVictimResidentBefore = -1;
        }
        switch (event) {
            case CoreEvent.EntryInserted e -> {
                resident += e.lengthBytes();
                if (!e.headroom()) {
                    stored.merge(e.opId(), e.lengthBytes(), Long::sum);
                }
                if (!(resident <= ctx.config().l1Bytes())) {
                    ctx.fail(Invariant.CAPACITY, "resident " + resident + " B > l1Bytes " + ctx.config().l1Bytes());
                }
            }
            case CoreEvent.EntryEvicted e -> {
                if (e.reason() == L1EvictReason.TRIM) {
                    trimVictimResidentBefore = resident;
                    trimVictimOffset = e.fileOffset();
                }
                resident -= e.lengthBytes();
            }
            case CoreEvent.SliceReserved e -> {
                leased += e.lengthBytes();
                if (!(leased <= poolBytes)) {
                    ctx.fail(Invariant.CAPACITY, "pool leases " + leased + " B > pool " + poolBytes);
                }
            }
            case CoreEvent.SliceFreed e -> leased -= e.lengthBytes();
            case CoreEvent.StoreCompleted e -> {
                final long inserted = stored.remove(e.storeId(), 0L);
                if (!(e.bytes() == inserted)) {
                    ctx.fail(Invariant.TRIM_BOUND, "store " + e.storeId() + " says it stored " + e.bytes()
                        + " B, its entries hold " + inserted + " B");
                }
                if (lastTrimmedStore != e.storeId()) {
                    ctx.fail(Invariant.TRIM_BOUND, "store " + e.storeId() + " completed without its trim");
                }
                if (resident > SpecModel.trimBoundBytes(ctx.config(), e.bytes())) {
                    ctx.fail(Invariant.TRIM_BOUND, "store " + e.storeId() + " completed with " + resident
                        + " B resident, above max(stored " + e.bytes() + ", saveTarget " + saveTargetBytes + ")");
                }
            }
            case CoreEvent.Trimmed e -> {
                lastTrimmedStore = e.storeId();
                trimmedNoFurther(ctx, e);
                if (!(e.residentAfter() == resident)) {
                    ctx.fail(Invariant.TRIM_BOUND,
                        "core says resident " + e.residentAfter() + ", events say " + resident);
                }
                if (!(e.residentAfter() <= e.targetBytes())) {
                    ctx.fail(Invariant.TRIM_BOUND,
                        "resident " + e.residentAfter() + " B > trim target " + e.targetBytes());
                }
                if (!(e.targetBytes() >= saveTargetBytes)) {
                    ctx.fail(Invariant.TRIM_BOUND, "trim target " + e.targetBytes() + " below saveTarget "
                        + saveTargetBytes);
                }
                final long want = SpecModel.trimBoundBytes(ctx.config(), stored.get(e.storeId(), 0L));
                if (!(e.targetBytes() == want)) {
                    ctx.fail(Invariant.TRIM_BOUND, "trim target " + e.targetBytes() + " is not max(stored "
                        + stored.get(e.storeId(), 0L) + ", saveTarget " + saveTargetBytes + ") = " + want);
                }
            }
            default -> {
                // other events do not change capacity
            }
        }
    }

    /** The trim's last victim was evicted while resident was still above the target (so every victim was). */
    private void trimmedNoFurther(final CheckContext ctx, final CoreEvent.Trimmed e) {
        if (e.evicted() > 0 && trimVictimResidentBefore >= 0 && !(trimVictimResidentBefore > e.targetBytes())) {
            ctx.fail(Invariant.TRIM_BOUND, "the trim of store " + e.storeId() + " evicted the entry at file offset "
                + trimVictimOffset + " with " + trimVictimResidentBefore + " B resident, already at or below its "
                + "target " + e.targetBytes() + " B: a trim stops at its target");
        }
        trimVictimResidentBefore = -1;
    }

    public long resident() {
        return resident;
    }

    public long leased() {
        return leased;
    }
}
