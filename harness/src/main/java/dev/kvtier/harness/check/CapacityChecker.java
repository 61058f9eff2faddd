package dev.kvtier.harness.check;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.l1.Admission;

/**
 * Invariants 1 and 3: resident bytes never exceed {@code l1Bytes}; bytes leased from the pool (resident,
 * pending-write-owned and in-flight reads) never exceed its capacity; every grouped store trims once before it
 * completes, and when it completes resident bytes are at most {@code max(bytes stored, saveTarget)} (checked at
 * completion too, so a trim done before the group was inserted is caught); the admission arithmetic itself holds.
 * Built from EntryInserted/EntryEvicted, SliceReserved/SliceFreed, Trimmed and StoreCompleted. Skips nothing.
 */
public final class CapacityChecker implements Checker {
    private final Admission admission;
    private long resident;
    private long leased;
    private long lastTrimmedStore = Long.MIN_VALUE;

    public CapacityChecker(final CheckContext ctx) {
        this.admission = Admission.of(ctx.config().l1Bytes(), ctx.config().headroomRatio());
        if (!(admission.saveTargetBytes() + admission.headroomBytes() == admission.l1Bytes())) {
            ctx.fail(Invariant.TRIM_BOUND, "saveTarget + H != l1");
        }
        if (!(admission.headroomBytes() >= 4096 && admission.headroomBytes() % 4096 == 0)) {
            ctx.fail(Invariant.TRIM_BOUND, "H = " + admission.headroomBytes() + " is not a multiple of 4096 >= 4096");
        }
    }

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.EntryInserted e -> {
                resident += e.lengthBytes();
                if (!(resident <= ctx.config().l1Bytes())) {
                    ctx.fail(Invariant.CAPACITY, "resident " + resident + " B > l1Bytes " + ctx.config().l1Bytes());
                }
            }
            case CoreEvent.EntryEvicted e -> resident -= e.lengthBytes();
            case CoreEvent.SliceReserved e -> {
                leased += e.lengthBytes();
                if (!(leased <= ctx.config().l1PoolBytes())) {
                    ctx.fail(Invariant.CAPACITY, "pool leases " + leased + " B > pool " + ctx.config().l1PoolBytes());
                }
            }
            case CoreEvent.SliceFreed e -> leased -= e.lengthBytes();
            case CoreEvent.StoreCompleted e -> {
                if (lastTrimmedStore != e.storeId()) {
                    ctx.fail(Invariant.TRIM_BOUND, "store " + e.storeId() + " completed without its trim");
                }
                if (resident > admission.trimTarget(e.bytes())) {
                    ctx.fail(Invariant.TRIM_BOUND, "store " + e.storeId() + " completed with " + resident
                        + " B resident, above max(stored " + e.bytes() + ", saveTarget "
                        + admission.saveTargetBytes() + ")");
                }
            }
            case CoreEvent.Trimmed e -> {
                lastTrimmedStore = e.storeId();
                if (!(e.residentAfter() == resident)) {
                    ctx.fail(Invariant.TRIM_BOUND,
                        "core says resident " + e.residentAfter() + ", events say " + resident);
                }
                if (!(e.residentAfter() <= e.targetBytes())) {
                    ctx.fail(Invariant.TRIM_BOUND,
                        "resident " + e.residentAfter() + " B > trim target " + e.targetBytes());
                }
                if (!(e.targetBytes() >= admission.saveTargetBytes())) {
                    ctx.fail(Invariant.TRIM_BOUND,
                        "trim target " + e.targetBytes() + " below saveTarget " + admission.saveTargetBytes());
                }
            }
            default -> {
                // other events do not change capacity
            }
        }
    }

    public long resident() {
        return resident;
    }

    public long leased() {
        return leased;
    }
}
