package dev.kvtier.core.store;

import dev.kvtier.core.value.AllocationRef;
import java.util.List;

/**
 * The answer to a grouped store, given once every accepted byte is in L1 (before L2 is written).
 *
 * @param storeId            the store
 * @param accepted           allocations all of whose spans were admitted
 * @param rejected           allocations with at least one span not admitted (stale, misaligned, ...)
 * @param writeErrorsSurfaced L2 write errors recorded since the previous result, surfaced here
 */
public record StoreResult(long storeId, List<AllocationRef> accepted, List<AllocationRef> rejected,
                          int writeErrorsSurfaced) {
    public StoreResult {
        accepted = List.copyOf(accepted);
        rejected = List.copyOf(rejected);
    }
}
