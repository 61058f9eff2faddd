package dev.kvtier.harness.check;

import dev.kvtier.core.util.KeyTable;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.harness.metrics.MissReason;
import java.util.List;

/**
 * For {@link ProvenanceChecker}: the keys of every hit between its lookup and its load's end, each with the last event
 * that removed it from the directory (a RingEvicted) while watched. A load that found an allocation of its hit gone is
 * legitimate only when such an event came after its lookup. The key table is for point look-ups only. Not
 * thread-safe.
 */
final class WatchedHits {
    /** One watched key: how many hits hold it, and its last removal (-1: none while watched). */
    private static final class Watch {
        int watchers;
        long removedAt = -1;
        boolean faulted;
    }

    private final KeyTable<Watch> keys = new KeyTable<>();

    /** A lookup found {@code hit} committed: watch its keys until its load ends. */
    void watch(final List<PrefixKey> hit) {
        for (final PrefixKey k : hit) {
            Watch w = keys.get(k.hi(), k.lo());
            if (w == null) {
                w = new Watch();
                keys.put(k.hi(), k.lo(), w);
            }
            w.watchers++;
        }
    }

    /** The load of {@code hit} ended. */
    void unwatch(final List<PrefixKey> hit) {
        for (final PrefixKey k : hit) {
            final Watch w = keys.get(k.hi(), k.lo());
            if (w == null) {
                throw new IllegalStateException("key " + k + " of a hit is not watched");
            }
            if (--w.watchers == 0) {
                keys.remove(k.hi(), k.lo());
            }
        }
    }

    /** {@code key} left the directory at event {@code seq} ({@code faulted}: after a fault). */
    void removed(final PrefixKey key, final boolean faulted, final long seq) {
        final Watch w = keys.get(key.hi(), key.lo());
        if (w != null) {
            w.removedAt = seq;
            w.faulted = faulted;
        }
    }

    /**
     * Why a key of {@code hit} (watched) left the directory after event {@code lookupSeq}: a fault if any did after
     * one, else a concurrent eviction; null when none did.
     */
    MissReason removedSince(final List<PrefixKey> hit, final long lookupSeq) {
        MissReason reason = null;
        for (final PrefixKey k : hit) {
            final Watch w = keys.get(k.hi(), k.lo());
            if (w != null && w.removedAt > lookupSeq) {
                if (w.faulted) {
                    return MissReason.FAULT;
                }
                reason = MissReason.CONCURRENT_EVICTION;
            }
        }
        return reason;
    }

    /** The core crashed: no hit is in flight any more. */
    void clear() {
        keys.clear();
    }
}
