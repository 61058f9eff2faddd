package dev.kvtier.property.chain;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.l1.Admission;
import dev.kvtier.harness.check.CheckContext;
import dev.kvtier.harness.check.Checker;
import dev.kvtier.harness.check.Invariant;

/**
 * Invariant 3 where the simulator's capacity checker does not look: when a grouped store completes, resident bytes
 * are at most {@code max(bytes it stored, saveTarget)}. The sim checks the bound at the {@code Trimmed} event only,
 * so a core that trimmed before inserting the group (and then inserted past the target) would pass it. Every
 * resident entry is evictable (a slice owned by a pending write may leave the map), so "unless nothing was
 * evictable" never applies here. And a trim stops at the target: it evicts no entry once resident bytes are within
 * it. Resident bytes come from EntryInserted and EntryEvicted.
 */
final class TrimAfterStoreChecker implements Checker {
    private final Admission admission;
    private long resident;
    private long residentBeforeLastTrimEviction = -1;

    TrimAfterStoreChecker(final Admission admission) {
        this.admission = admission;
    }

    @Override
    public void onEvent(final CheckContext ctx, final CoreEvent event) {
        switch (event) {
            case CoreEvent.EntryInserted e -> resident += e.lengthBytes();
            case CoreEvent.EntryEvicted e -> {
                if (e.reason() == CoreEvent.L1EvictReason.TRIM) {
                    residentBeforeLastTrimEviction = resident;
                }
                resident -= e.lengthBytes();
            }
            case CoreEvent.Trimmed e -> {
                if (e.evicted() > 0 && residentBeforeLastTrimEviction <= e.targetBytes()) {
                    ctx.fail(Invariant.TRIM_BOUND, "store " + e.storeId() + " trimmed an entry while resident ("
                        + residentBeforeLastTrimEviction + " B) was already within the target " + e.targetBytes());
                }
                residentBeforeLastTrimEviction = -1;
            }
            case CoreEvent.StoreCompleted e -> {
                final long bound = admission.trimTarget(e.bytes());
                if (resident > bound) {
                    ctx.fail(Invariant.TRIM_BOUND, "store " + e.storeId() + " completed with " + resident
                        + " B resident, above max(stored " + e.bytes() + ", saveTarget " + admission.saveTargetBytes()
                        + ") = " + bound);
                }
            }
            default -> {
                // no effect on resident bytes
            }
        }
    }
}
