package dev.kvtier.core.l2;

import dev.kvtier.core.event.CoreEvent.SkipReason;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.PrefixKey;

/** The answer for one key of an allocation request. */
public sealed interface AllocationResult {
    /** The key that was asked for. */
    PrefixKey key();

    /** A writer claim: the caller stores into {@code ref}'s slots, then commits. */
    record Claimed(AllocationRef ref) implements AllocationResult {
        @Override
        public PrefixKey key() {
            return ref.key();
        }
    }

    /** No claim: another writer has the key, it is committed already, or it does not fit the ring. */
    record Skipped(PrefixKey key, SkipReason reason) implements AllocationResult {}
}
