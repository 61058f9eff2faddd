package dev.kvtier.harness.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import dev.kvtier.core.value.StoreSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the connector asks of the store under each of its options (slots of 64 KiB, 16 tokens a block). */
class ConnectorCallsTest {
    private static final long SLOT = 65_536;
    private static final int BLOCKS = 8;

    private static List<PrefixKey> keys() {
        final List<PrefixKey> keys = new ArrayList<>();
        for (int i = 0; i < BLOCKS; i++) {
            keys.add(new PrefixKey(7, i));
        }
        return keys;
    }

    private static ConnectorCalls calls(final ConnectorSpec spec, final CommitMode mode) {
        return new ConnectorCalls(spec, 16, SLOT, mode, 1);
    }

    private static ConnectorSpec spec(final int blocksPerKey, final boolean partial, final boolean storeLoaded,
                                      final boolean duplicate, final int abortEvery, final int badSpanEvery) {
        return new ConnectorSpec(blocksPerKey, partial, storeLoaded, duplicate, abortEvery, badSpanEvery);
    }

    private static EngineRequest request(final long id) {
        return new EngineRequest(id, 0, 0, keys(), BLOCKS * 16, 0);
    }

    @Test
    void shouldAskForOneSlotAKeyWithTheReferenceConnector() {
        final ConnectorCalls c = calls(ConnectorSpec.DEFAULT, CommitMode.L1);
        assertEquals(keys(), c.lookupKeys(keys()));
        assertEquals(List.of(new ConnectorCalls.Run(2, keys().subList(2, BLOCKS), 1)), c.allocations(keys(), 2,
            BLOCKS));
        final AllocationRef ref = new AllocationRef(keys().getFirst(), 1, 4, 1);
        assertEquals(List.of(LoadRange.whole(ref, SLOT, 0)), c.loadRanges(List.of(ref), b -> b * SLOT));
        final EngineRequest r = request(10);
        r.claims.put(0, ref);
        assertEquals(List.of(StoreSpec.of(ref, List.of(0), SLOT)), c.specs(r, b -> b));
    }

    @Test
    void shouldKeyChunksByTheirLastBlockAndClaimATrailingChunkOnItsOwn() {
        final ConnectorCalls c = calls(spec(3, false, false, false, 0, 0), CommitMode.L1);
        final List<PrefixKey> k = keys();
        assertEquals(List.of(k.get(2), k.get(5), k.get(7)), c.lookupKeys(k));
        assertEquals(List.of(new ConnectorCalls.Run(0, List.of(k.get(2), k.get(5)), 3),
            new ConnectorCalls.Run(6, List.of(k.get(7)), 2)), c.allocations(k, 0, BLOCKS));
        assertEquals(List.of(new ConnectorCalls.Run(3, List.of(k.get(5)), 3)), c.allocations(k, 3, 6));
        final AllocationRef a = new AllocationRef(k.get(2), 1, 10, 3);
        final AllocationRef b = new AllocationRef(k.get(5), 2, 13, 3);
        assertEquals(6, ConnectorCalls.blocksOf(List.of(a, b)));
        assertEquals(List.of(LoadRange.whole(a, SLOT, 0), LoadRange.whole(b, SLOT, 3 * SLOT)),
            c.loadRanges(List.of(a, b), blk -> blk * SLOT));
        final EngineRequest r = request(1);
        r.claims.put(6, new AllocationRef(k.get(7), 3, 16, 2));
        assertEquals(List.of(new StoreSpec(r.claims.get(6), List.of(6, 7), 16 * SLOT)), c.specs(r, blk -> blk));
    }

    @Test
    void shouldLoadOnlyTheLeadingPagesOfTheLastSlotWithPartialLoads() {
        final ConnectorCalls c = calls(spec(2, true, false, false, 0, 0), CommitMode.L1);
        final AllocationRef a = new AllocationRef(keys().get(1), 1, 0, 2);
        final LoadRange only = c.loadRanges(List.of(a), b -> b * SLOT).getFirst();
        assertEquals(SLOT + 61_440, only.lengthBytes(), "15 of 16 tokens, whole pages");
        assertEquals(61_440, c.loadedBytes(1, 2));
        assertEquals(SLOT, c.loadedBytes(0, 2));
        final ConnectorCalls onePage = new ConnectorCalls(spec(1, true, false, false, 0, 0), 16, 4096, CommitMode.L1,
            1);
        assertEquals(4096, onePage.loadedBytes(0, 1), "a slot of one page is loaded whole");
    }

    @Test
    void shouldStoreTheLoadedPrefixAgainOnlyInL1ModeAndOnlyAfterALoad() {
        final AllocationRef loaded = new AllocationRef(keys().getFirst(), 1, 0, 1);
        final AllocationRef claimed = new AllocationRef(keys().get(1), 2, 1, 1);
        final EngineRequest r = request(1);
        r.prefix = List.of(loaded);
        r.cached = 1;
        r.claims.put(1, claimed);
        final ConnectorSpec s = spec(1, false, true, false, 0, 0);
        assertEquals(List.of(StoreSpec.of(loaded, List.of(0), SLOT), StoreSpec.of(claimed, List.of(1), SLOT)),
            calls(s, CommitMode.L1).specs(r, b -> b));
        assertEquals(List.of(StoreSpec.of(claimed, List.of(1), SLOT)), calls(s, CommitMode.DURABLE).specs(r, b -> b));
        r.cached = 0;
        assertEquals(List.of(StoreSpec.of(claimed, List.of(1), SLOT)), calls(s, CommitMode.L1).specs(r, b -> b));
    }

    @Test
    void shouldDuplicateTheFirstSpecAbortOrSendABadSpanForTheChosenRequests() {
        final AllocationRef claimed = new AllocationRef(keys().getFirst(), 2, 3, 1);
        final StoreSpec good = StoreSpec.of(claimed, List.of(0), SLOT);
        final EngineRequest five = request(5);
        five.claims.put(0, claimed);
        assertEquals(List.of(good, good), calls(spec(1, false, false, true, 0, 0), CommitMode.L1).specs(five,
            b -> b));
        assertEquals(List.of(), calls(spec(1, false, false, false, 5, 0), CommitMode.L1).specs(five, b -> b));
        final ConnectorCalls bad = calls(spec(1, false, false, false, 0, 5), CommitMode.L1);
        assertEquals(List.of(new StoreSpec(claimed, List.of(0), 3 * SLOT + SLOT)), bad.specs(five, b -> b),
            "5 / 5 is odd: just past the allocation's end");
        final EngineRequest ten = request(10);
        ten.claims.put(0, claimed);
        assertEquals(List.of(new StoreSpec(claimed, List.of(0), 3 * SLOT + 512)), bad.specs(ten, b -> b),
            "10 / 5 is even: 512 B in, misaligned");
        final EngineRequest seven = request(7);
        seven.claims.put(0, claimed);
        assertEquals(List.of(good), bad.specs(seven, b -> b));
    }

    @Test
    void shouldRefuseAConnectorWithoutAKeyOrWithNegativeIntervals() {
        assertThrows(IllegalArgumentException.class, () -> spec(0, false, false, false, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> spec(1, false, false, false, -1, 0));
        assertTrue(spec(1, false, false, false, 3, 0).aborts(6));
    }
}
