package dev.kvtier.core.l2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.event.CoreEvent.SkipReason;
import dev.kvtier.core.testkit.RecordingSink;
import dev.kvtier.core.value.PrefixKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code L2Admission.SECOND_SIGHT}: a key gets slots the second time it is asked for. */
class SecondSightAdmissionTest {
    private final RecordingSink events = new RecordingSink();

    private static PrefixKey k(final int i) {
        return new PrefixKey(i, i);
    }

    private L2Directory directory(final int slots) {
        final L2Directory d = new L2Directory(4096, slots, events);
        d.admitOnSecondSight();
        return d;
    }

    private static void skipped(final AllocationResult r) {
        assertEquals(SkipReason.NOT_ADMITTED, assertInstanceOf(AllocationResult.Skipped.class, r).reason());
    }

    @Test
    void shouldSkipAKeysFirstSightAndAdmitItsSecond() {
        final L2Directory d = directory(8);
        skipped(d.allocate(1, 1, List.of(k(1)), 1).getFirst());
        assertEquals(1, events.of(CoreEvent.AllocationSkipped.class).size());
        assertInstanceOf(AllocationResult.Claimed.class, d.allocate(2, 1, List.of(k(1)), 1).getFirst());
        assertEquals(0, d.lookup(1, List.of(k(1))).prefixLength(), "claimed, not yet committed");
    }

    @Test
    void shouldForgetTheOldestKeySeenOnceBeyondTheRingsSlotCount() {
        final L2Directory d = directory(3);
        for (int i = 1; i <= 4; i++) {
            skipped(d.allocate(i, 1, List.of(k(i)), 1).getFirst());
        }
        skipped(d.allocate(5, 1, List.of(k(1)), 1).getFirst()); // forgotten when k(4) came: a first sight again
        assertInstanceOf(AllocationResult.Claimed.class, d.allocate(6, 1, List.of(k(4)), 1).getFirst());
    }

    @Test
    void shouldAdmitEveryKeyByDefault() {
        final L2Directory d = new L2Directory(4096, 8, events);
        assertInstanceOf(AllocationResult.Claimed.class, d.allocate(1, 1, List.of(k(1)), 1).getFirst());
    }
}
