package dev.kvtier.harness.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.harness.metrics.MissReason;
import dev.kvtier.harness.metrics.PrefilledBy;
import dev.kvtier.harness.metrics.RequestTokens;
import dev.kvtier.harness.workload.RequestTiming;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Where every token came from, and invariant 11's "a committed hit is never silently shortened": a small driver here
 * makes the engine's calls as {@code StepEngine} does (a lookup, its RequestArrived note, a load, the request's end)
 * over a core's events, honestly or with a planted bug, and the checker must account for every token of the honest
 * one and fail the buggy ones.
 */
class ProvenanceCheckerTest {
    private static final int BT = 16;
    private static final long S = CheckerFeed.S;

    /** What a buggy driver does wrong. */
    private enum Bug {
        NONE,
        /** It drops the last block of a full hit from what it loads, and prefills it. */
        DROP_LAST_BLOCK,
        /** It says it loads the whole hit, and asks the load for one block less. */
        SHORT_LOAD,
        /** It loads the whole hit, and prefills the last block anyway. */
        PREFILL_LAST
    }

    /** A core's events as a test writes them, fed to one checker, and an engine's driver over them. */
    private static final class Rig {
        final ProvenanceChecker checker = new ProvenanceChecker(BT, 1);
        final CheckContext ctx = new CheckContext(CheckerFeed.CONFIG);
        final Map<PrefixKey, AllocationRef> live = new HashMap<>();
        final Set<PrefixKey> committed = new HashSet<>();
        int nextSlot;
        long nextAllocation = 1;
        long nextLoad = 1000;

        void emit(final CoreEvent... events) {
            for (final CoreEvent e : events) {
                ctx.sequence++;
                ctx.event = e;
                checker.onEvent(ctx, e);
            }
        }

        /** Allocates {@code keys} and, if {@code commit}, commits them. */
        void store(final List<PrefixKey> keys, final boolean commit) {
            for (final PrefixKey k : keys) {
                final AllocationRef ref = new AllocationRef(k, nextAllocation++, nextSlot++, 1);
                emit(new CoreEvent.Allocated(1, k, ref.allocationId(), ref.startSlot(), 1));
                live.put(k, ref);
            }
            for (final PrefixKey k : commit ? keys : List.<PrefixKey>of()) {
                emit(new CoreEvent.Committed(k, live.get(k).allocationId()));
                committed.add(k);
            }
        }

        void evict(final PrefixKey k, final CoreEvent.RingEvictReason reason) {
            final AllocationRef ref = live.remove(k);
            committed.remove(k);
            emit(new CoreEvent.RingEvicted(k, ref.allocationId(), ref.startSlot(), 1, true, 0, reason));
        }

        /** The lookup's answer: the keys before the first that is not committed. */
        int committedPrefix(final List<PrefixKey> keys) {
            int n = 0;
            while (n < keys.size() && committed.contains(keys.get(n))) {
                n++;
            }
            return n;
        }

        /**
         * One request of {@code keys} and {@code input} tokens through the engine, as {@code StepEngine} makes its
         * calls; {@code fromL2} of the hit's blocks are read from L2; the load fails with {@code failure} (or not,
         * null) after {@code meanwhile} runs.
         */
        RequestTokens request(final long id, final List<PrefixKey> keys, final int input, final Bug bug,
                              final int fromL2, final CoreEvent.LoadFailure failure, final Runnable meanwhile) {
            final int hit = committedPrefix(keys);
            emit(new CoreEvent.Lookup(1, keys, hit));
            final boolean full = hit == keys.size();
            final int cached = bug == Bug.DROP_LAST_BLOCK && full ? hit - 1 : hit;
            emit(new CoreEvent.RequestArrived(id, "p", keys.size(), cached));
            meanwhile.run();
            boolean loaded = cached == 0;
            if (cached > 0) {
                final long loadId = nextLoad++;
                checker.loadSent(id, loadId);
                final List<LoadRange> ranges = new ArrayList<>();
                for (int b = 0; b < (bug == Bug.SHORT_LOAD ? cached - 1 : cached); b++) {
                    ranges.add(LoadRange.whole(new AllocationRef(keys.get(b), 1000 + b, 32 + b, 1), S, b * S));
                }
                emit(new CoreEvent.LoadRequested(loadId, ranges, ranges.size() * S));
                if (failure != null) {
                    emit(new CoreEvent.LoadFailed(loadId, failure));
                } else {
                    for (int b = 0; b < ranges.size(); b++) {
                        final LoadRange r = ranges.get(b);
                        emit(b < ranges.size() - fromL2 ? new CoreEvent.LoadHit(loadId, r.fileOffset(), S)
                            : new CoreEvent.LoadGap(loadId, r.fileOffset(), S));
                    }
                    emit(new CoreEvent.LoadCompleted(loadId, ranges.size() * S, (ranges.size() - fromL2) * S));
                    loaded = true;
                }
            }
            final int have = loaded ? cached : 0;
            final long uncached = (long) (keys.size() - have) * BT + input % BT;
            final long prefilled = Math.max(1, uncached) + (bug == Bug.PREFILL_LAST && full ? BT : 0);
            checker.requestDone(new RequestTiming(id, "p", 0, 0, 10, 10, 1, new RequestTiming.Tokens(input,
                (long) have * BT - (bug == Bug.PREFILL_LAST && full ? BT : 0), prefilled)));
            final List<RequestTokens> all = checker.requests();
            return all.getLast();
        }

        RequestTokens request(final long id, final List<PrefixKey> keys, final int input) {
            return request(id, keys, input, Bug.NONE, 0, null, () -> {});
        }
    }

    private static List<PrefixKey> keys(final int prompt, final int n) {
        final List<PrefixKey> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new PrefixKey(prompt, i));
        }
        return out;
    }

    private static InvariantViolation violation(final Bug bug) {
        final Rig rig = new Rig();
        rig.store(keys(1, 4), true);
        final InvariantViolation v = assertThrows(InvariantViolation.class,
            () -> rig.request(1, keys(1, 4), 4 * BT, bug, 0, null, () -> {}), bug + " must be caught");
        assertEquals(Invariant.LOOKUP_PREFIX, v.invariant(), v.getMessage());
        assertTrue(v.getMessage().contains("a committed hit silently shortened"), v.getMessage());
        return v;
    }

    @Test
    void shouldAccountForEveryTokenOfAnHonestFullHit() {
        final Rig rig = new Rig();
        rig.store(keys(1, 4), true);
        final RequestTokens r = rig.request(1, keys(1, 4), 4 * BT, Bug.NONE, 1, null, () -> {});
        // Three blocks from L1, the last read from L2; its last token is computed again.
        assertEquals(3 * BT, r.fromL1());
        assertEquals(BT - 1, r.fromL2());
        assertEquals(new PrefilledBy(0, 0, 0, 0, 0, 0, 1), r.prefilledBy());
        assertEquals(-1, r.firstMissBlock());
        assertEquals(4 * BT, rig.checker.tokenSources().input());
    }

    @Test
    void shouldFailADriverThatDropsTheLastBlockOfAFullHit() {
        assertTrue(violation(Bug.DROP_LAST_BLOCK).getMessage().contains("found 4 of its 4 blocks committed, and it"
            + " means to load 3"));
    }

    @Test
    void shouldFailALoadThatAsksForLessThanTheHit() {
        assertTrue(violation(Bug.SHORT_LOAD).getMessage().contains("asks for 3"));
    }

    @Test
    void shouldFailARequestThatPrefillsWhatItLoaded() {
        assertTrue(violation(Bug.PREFILL_LAST).getMessage().contains("prefilled 17"));
    }

    @Test
    void shouldExcuseALoadShortenedByAnEvictionTheCoreReported() {
        final Rig rig = new Rig();
        rig.store(keys(1, 4), true);
        final RequestTokens r = rig.request(1, keys(1, 4), 4 * BT + 3, Bug.NONE, 0,
            CoreEvent.LoadFailure.NOT_COMMITTED, () -> rig.evict(new PrefixKey(1, 3), CoreEvent.RingEvictReason.SPACE));
        assertEquals(new PrefilledBy(0, 0, 0, 0, 0, 4 * BT, 3), r.prefilledBy());
        assertEquals(CoreEvent.LoadFailure.NOT_COMMITTED, r.loadFailure());
    }

    @Test
    void shouldFailALoadThatFoundItsHitGoneWithNoEvictionReported() {
        final Rig rig = new Rig();
        rig.store(keys(1, 4), true);
        final InvariantViolation v = assertThrows(InvariantViolation.class, () -> rig.request(1, keys(1, 4), 4 * BT,
            Bug.NONE, 0, CoreEvent.LoadFailure.LEASE_REVOKED, () -> {}));
        assertEquals(Invariant.LOOKUP_PREFIX, v.invariant());
        assertTrue(v.getMessage().contains("no key of its 4 blocks left the directory"), v.getMessage());
    }

    @Test
    void shouldCountAFailedReadAndAnEvictionForAFaultAsFaults() {
        final Rig rig = new Rig();
        rig.store(keys(1, 4), true);
        assertEquals(4 * BT, rig.request(1, keys(1, 4), 4 * BT, Bug.NONE, 0, CoreEvent.LoadFailure.READ_ERROR,
            () -> {}).prefilledBy().fault());
        assertEquals(4 * BT, rig.request(2, keys(1, 4), 4 * BT, Bug.NONE, 0, CoreEvent.LoadFailure.LEASE_REVOKED,
            () -> rig.evict(new PrefixKey(1, 2), CoreEvent.RingEvictReason.CORRUPT)).prefilledBy().fault());
    }

    /** Each block past the hit gets its key's fate; a committed one after the first miss gets the first miss's. */
    @Test
    void shouldGiveEachMissedBlockItsKeysLastFate() {
        final Rig rig = new Rig();
        rig.store(keys(1, 6), true);
        rig.evict(new PrefixKey(1, 2), CoreEvent.RingEvictReason.WRAP);
        rig.evict(new PrefixKey(1, 4), CoreEvent.RingEvictReason.WRITE_FAILED);
        final List<PrefixKey> keys = new ArrayList<>(keys(1, 6));
        keys.add(new PrefixKey(9, 9));
        final RequestTokens r = rig.request(1, keys, 7 * BT + 5);
        // Blocks 0-1 hit; 2 evicted, 3 committed after it (evicted too), 4 faulted, 5 committed (evicted), 6 new.
        assertEquals(new PrefilledBy(BT, 3 * BT, BT, 0, 0, 0, 5), r.prefilledBy());
        assertEquals(2 * BT, r.fromL1());
        assertEquals(2, r.firstMissBlock());
        assertEquals(MissReason.EVICTED, r.firstMissReason());
        assertEquals(new PrefixKey(1, 2), r.firstMissKey());
    }

    @Test
    void shouldTellANotYetCommittedKeyAndOneLostToACrash() {
        final Rig rig = new Rig();
        rig.store(keys(1, 2), true);
        rig.store(keys(2, 2), false);
        assertEquals(2 * BT, rig.request(1, keys(2, 2), 2 * BT).prefilledBy().notCommitted());
        rig.emit(new CoreEvent.IndexOpenRequested(true));
        rig.live.clear();
        rig.committed.clear();
        final AllocationRef recovered = new AllocationRef(new PrefixKey(1, 0), 1, 0, 1);
        rig.emit(new CoreEvent.ChunkRecovered(recovered.key(), 1, 1, 0, 1));
        rig.live.put(recovered.key(), recovered);
        rig.committed.add(recovered.key());
        final RequestTokens r = rig.request(1L << 32, keys(1, 2), 2 * BT);
        assertEquals(BT, r.fromL1());
        assertEquals(new PrefilledBy(0, 0, 0, BT, 0, 0, 0), r.prefilledBy());
        assertEquals(new PrefilledBy(0, 0, 0, BT, 2 * BT, 0, 0), rig.checker.tokenSources().prefilledBy());
    }
}
