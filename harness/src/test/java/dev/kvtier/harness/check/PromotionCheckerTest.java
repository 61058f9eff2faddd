package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.DiscardReason;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A promotion whose read was in flight while a store inserted over its bytes is not inserted (the first hazard of
 * docs/design/STORAGE-CORE.md 6): what a store that forgets to supersede the in-flight reads of its range would do.
 */
class PromotionCheckerTest {
    private static final long LOAD = 77;
    private static final long STORE = 90;
    private static final AllocationRef REF = new AllocationRef(new PrefixKey(1, 1), 1, 2, 1);

    private static CoreEvent[] read(final CoreEvent between, final CoreEvent decided) {
        return new CoreEvent[] {
            new CoreEvent.LoadRequested(LOAD, List.of(new LoadRange(REF, 2 * S, S, 0)), S),
            new CoreEvent.LoadGap(LOAD, 2 * S, S),
            new CoreEvent.SliceReserved(LOAD, 2 * S, S, 0),
            between,
            decided,
        };
    }

    private static CoreEvent storeOver(final long fileOffset) {
        return new CoreEvent.EntryInserted(STORE, fileOffset, S, S, 0, false, 0);
    }

    @Test
    void shouldHoldWhenTheSupersededReadIsDiscarded() {
        CheckerFeed.passes(new PromotionChecker(), CONFIG,
            read(storeOver(2 * S), new CoreEvent.PromotionDiscarded(LOAD, 2 * S, S, DiscardReason.SUPERSEDED)));
    }

    @Test
    void shouldHoldWhenTheStoreIsOfOtherBytes() {
        CheckerFeed.passes(new PromotionChecker(), CONFIG,
            read(storeOver(3 * S), new CoreEvent.Promoted(LOAD, 2 * S, S)));
    }

    @Test
    void shouldFireWhenAPromotionReplacesANewerStore() {
        final InvariantViolation v = assertThrows(InvariantViolation.class, () -> CheckerFeed.passes(
            new PromotionChecker(), CONFIG, read(storeOver(2 * S), new CoreEvent.Promoted(LOAD, 2 * S, S))));
        assertEquals(Invariant.LOAD_BYTES, v.invariant());
    }

    @Test
    void shouldNotJudgeAStoreBeforeTheReadWasIssued() {
        CheckerFeed.passes(new PromotionChecker(), CONFIG, storeOver(2 * S),
            new CoreEvent.LoadRequested(LOAD, List.of(new LoadRange(REF, 2 * S, S, 0)), S),
            new CoreEvent.SliceReserved(LOAD, 2 * S, S, 0),
            new CoreEvent.Promoted(LOAD, 2 * S, S));
    }
}
