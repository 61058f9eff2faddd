package dev.kvtier.harness.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The tally against a {@code HashMap<Long, Long>} doing the same merges, look-ups and removals. */
class LongTallyTest {
    @Test
    void shouldAgreeWithAHashMapUnderMergesAndRemovals() {
        final SplittableRandom random = new SplittableRandom(17);
        final LongTally tally = new LongTally();
        final Map<Long, Long> reference = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            // a sliding window of ids (stores come and go), a few far and negative ones, colliding runs
            final long key = switch (random.nextInt(8)) {
                case 0 -> random.nextLong();
                case 1 -> -random.nextInt(50);
                default -> step / 16 + random.nextInt(64);
            };
            final long value = random.nextInt(1000);
            switch (random.nextInt(4)) {
                case 0 -> {
                    tally.merge(key, value, Long::sum);
                    reference.merge(key, value, Long::sum);
                }
                case 1 -> {
                    tally.merge(key, value, Math::max);
                    reference.merge(key, value, Math::max);
                }
                case 2 -> {
                    final Long removed = reference.remove(key);
                    assertEquals(removed == null ? -1 : removed, tally.remove(key, -1), "remove " + key);
                }
                default -> assertEquals((long) reference.getOrDefault(key, -1L), tally.get(key, -1), "get " + key);
            }
            assertEquals(reference.size(), tally.size(), "size at step " + step);
        }
        for (final Map.Entry<Long, Long> e : reference.entrySet()) {
            assertEquals((long) e.getValue(), tally.get(e.getKey(), -1), "key " + e.getKey());
        }
    }

    @Test
    void shouldAnswerAbsentForAKeyNeverMergedOrRemoved() {
        final LongTally tally = new LongTally();
        assertEquals(-1, tally.get(7, -1));
        tally.merge(7, 5, Long::sum);
        tally.merge(7, 6, Long::sum);
        assertEquals(11, tally.get(7, -1));
        assertEquals(11, tally.remove(7, -1));
        assertEquals(-1, tally.remove(7, -1));
        assertEquals(0, tally.size());
    }
}
