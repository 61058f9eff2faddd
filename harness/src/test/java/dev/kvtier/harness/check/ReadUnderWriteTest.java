package dev.kvtier.harness.check;

import static dev.kvtier.harness.check.CheckerFeed.CONFIG;
import static dev.kvtier.harness.check.CheckerFeed.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.SealReason;
import dev.kvtier.core.value.AllocationRef;
import dev.kvtier.core.value.LoadRange;
import dev.kvtier.core.value.PrefixKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A load issues no read while a write over its bytes is pending (docs/design/STORAGE-CORE.md 5.2): what a load that
 * forgets to wait would do. On a device that reorders (sim.reorder) its read could return the bytes before the write.
 */
class ReadUnderWriteTest {
    private static final long LOAD = 77;
    private static final AllocationRef REF = new AllocationRef(new PrefixKey(1, 1), 1, 2, 1);

    private static CoreEvent[] load(final boolean waits) {
        final CoreEvent.BatchSealed sealed = new CoreEvent.BatchSealed(5, 9, 2 * S, S, 1, 0, SealReason.END_OF_STORE);
        final CoreEvent.WriteFinished written = new CoreEvent.WriteFinished(5, 2 * S, S, true);
        final CoreEvent.SliceReserved read = new CoreEvent.SliceReserved(LOAD, 2 * S, S, 0);
        return new CoreEvent[] {
            sealed,
            new CoreEvent.LoadRequested(LOAD, List.of(new LoadRange(REF, 2 * S, S, 0)), S),
            new CoreEvent.LoadGap(LOAD, 2 * S, S),
            waits ? written : read,
            waits ? read : written,
        };
    }

    @Test
    void shouldHoldWhenTheReadWaitsForThePendingWrite() {
        CheckerFeed.passes(new WriteOrderChecker(), CONFIG, load(true));
    }

    @Test
    void shouldFireWhenALoadReadsUnderAPendingWrite() {
        final InvariantViolation v = assertThrows(InvariantViolation.class,
            () -> CheckerFeed.passes(new WriteOrderChecker(), CONFIG, load(false)));
        assertEquals(Invariant.LOAD_BYTES, v.invariant());
    }

    @Test
    void shouldNotJudgeAStoresOwnReservation() {
        CheckerFeed.passes(new WriteOrderChecker(), CONFIG,
            new CoreEvent.BatchSealed(5, 9, 2 * S, S, 1, 0, SealReason.END_OF_STORE),
            new CoreEvent.SliceReserved(10, 2 * S, S, 0),
            new CoreEvent.WriteFinished(5, 2 * S, S, true));
    }
}
