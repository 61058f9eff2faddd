package dev.kvtier.harness.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The write-back cache's timing: continuous drain without a delay; held bytes forced out by a FLUSH with one. */
class WriteBackTest {
    private static final long MS = 1_000_000L;
    private static final long GB_PER_SEC = 1_000_000_000L;
    /** 100 MB: 100 ms at 1 GB/s. */
    private static final long BYTES = 100_000_000L;

    @Test
    void shouldDrainFromTheWritesCompletionWithoutADelay() {
        final WriteBack c = new WriteBack(GB_PER_SEC, 0);
        c.wrote(0, 10 * MS, BYTES);
        c.wrote(0, 20 * MS, BYTES);
        assertEquals(210 * MS, c.flush(30 * MS), "200 MB drained one after the other from 10 ms");
        assertEquals(500 * MS, c.flush(500 * MS), "nothing left: the FLUSH costs nothing more");
    }

    @Test
    void shouldForceWhatTheCacheHoldsAtAFlushInsteadOfWaitingOutTheDelay() {
        final WriteBack c = new WriteBack(GB_PER_SEC, 2_000 * MS);
        c.wrote(0, 10 * MS, BYTES);
        assertEquals(150 * MS, c.flush(50 * MS), "the held 100 MB written back at once, at 1 GB/s");
    }

    @Test
    void shouldCostNothingOnceTheDelayAndTheDrainHavePassed() {
        final WriteBack c = new WriteBack(GB_PER_SEC, 2_000 * MS);
        c.wrote(0, 10 * MS, BYTES);
        assertEquals(2_200 * MS, c.flush(2_200 * MS), "drained on its own from 2.01 s to 2.11 s");
    }

    @Test
    void shouldForceOnlyWhatIsLeftOfADrainInProgress() {
        final WriteBack c = new WriteBack(GB_PER_SEC, 2_000 * MS);
        c.wrote(0, 10 * MS, BYTES);
        assertEquals(2_110 * MS, c.flush(2_060 * MS), "50 of the 100 MB drained by 2.06 s (from 2.01 s), 50 ms left");
    }

    @Test
    void shouldWaitForAWriteBookedBeforeTheFlushThatCompletesAfterIt() {
        final WriteBack c = new WriteBack(GB_PER_SEC, 2_000 * MS);
        c.wrote(0, 500 * MS, BYTES);
        assertEquals(600 * MS, c.flush(100 * MS), "the write reaches the cache at 0.5 s and is forced out from there");
    }

    @Test
    void shouldStartFromEmptyAfterAFlushAndAfterAReset() {
        final WriteBack c = new WriteBack(GB_PER_SEC, 2_000 * MS);
        c.wrote(0, 0, BYTES);
        assertEquals(100 * MS, c.flush(0));
        c.wrote(100 * MS, 100 * MS, BYTES);
        assertEquals(300 * MS, c.flush(200 * MS), "only the second write is left");
        c.wrote(300 * MS, 300 * MS, BYTES);
        c.reset();
        assertEquals(400 * MS, c.flush(400 * MS), "power loss: nothing held");
    }

    @Test
    void shouldRefuseANonPositiveRateOrANegativeDelay() {
        assertThrows(IllegalArgumentException.class, () -> new WriteBack(0, 0));
        assertThrows(IllegalArgumentException.class, () -> new WriteBack(1, -1));
        assertThrows(IllegalArgumentException.class, () -> new DeviceProfile("t", 1, 1, 1, 1, 1, 1, 0, 5));
    }
}
