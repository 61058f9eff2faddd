package dev.kvtier.harness.entropy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SeedStreamTest {

    /**
     * Every stream's child seed under root seed 1, as the literal names gave it before the names moved into
     * {@link SeedStream}: a renamed stream, or a changed derivation, changes every digest drawn from it.
     */
    private static final Map<SeedStream, Long> CHILD_SEEDS_OF_1 = new EnumMap<>(Map.ofEntries(
        Map.entry(SeedStream.WORKLOAD, -6207146304311154094L),
        Map.entry(SeedStream.TOKENS, 2452839344693970195L),
        Map.entry(SeedStream.KEYS, -8365934297900912728L),
        Map.entry(SeedStream.FAULTS, -6145000349762288591L),
        Map.entry(SeedStream.INDEX_FAULTS, -9175095394782912935L),
        Map.entry(SeedStream.REORDER, 1679585262131448896L),
        Map.entry(SeedStream.INDEX_REORDER, -8397583876850382158L),
        Map.entry(SeedStream.CRASH_POINTS, 2226216974750715214L),
        Map.entry(SeedStream.CRASH_DURING_SHUTDOWN, 6795964900824544148L),
        Map.entry(SeedStream.CRASH, 6365560049597608222L),
        Map.entry(SeedStream.CRASH_DATA, -6932044689735032711L),
        Map.entry(SeedStream.CRASH_INDEX, -9219284638904434376L),
        Map.entry(SeedStream.SWARM, 1065235234691451942L)));

    @Test
    void namesAreUnique() {
        final Set<String> names = new HashSet<>();
        for (final SeedStream s : SeedStream.values()) {
            assertTrue(names.add(s.streamName()), "two streams are named " + s.streamName());
            assertFalse(s.streamName().isEmpty(), s + " has no name");
        }
    }

    @Test
    void noFixedNameLooksLikeANumberedLife() {
        for (final SeedStream s : SeedStream.values()) {
            if (s != SeedStream.LIFE) {
                assertFalse(s.streamName().startsWith(SeedStream.LIFE.streamName()), s + " could be a life's name");
            }
        }
    }

    @Test
    void everyStreamDerivesTheSeedItAlwaysHad() {
        for (final SeedStream s : SeedStream.values()) {
            if (s == SeedStream.LIFE) {
                continue;
            }
            final long expected = CHILD_SEEDS_OF_1.get(s);
            assertEquals(expected, new SeededEntropy(1).child(s).seed(), s.toString());
            assertEquals(expected, SeededEntropy.childSeed(1, s.streamName()), s.toString());
            assertEquals(expected, ((SeededEntropy) s.of(new SeededEntropy(1))).seed(), s.toString());
        }
        assertEquals(CHILD_SEEDS_OF_1.size(), SeedStream.values().length - 1, "a stream without its pinned seed");
        assertEquals(6972807481124844648L, SeededEntropy.childSeed(1, SeedStream.life(2)));
    }

    @Test
    void pathsThroughTheTreeDrawWhatTheyAlwaysDrew() {
        final SeededEntropy root = new SeededEntropy(42);
        assertEquals(-4039733319713204126L, root.child(SeedStream.WORKLOAD).child(SeedStream.TOKENS).nextLong());
        assertEquals(-6970071405076491975L, root.child(SeedStream.CRASH).child(SeedStream.life(3))
            .child(SeedStream.CRASH_DATA).nextLong());
        assertEquals(3, root.child(SeedStream.CRASH_DURING_SHUTDOWN).nextInt(8));
    }

    @Test
    void theLifeStreamIsOnlyNumbered() {
        assertEquals("life-2", SeedStream.life(2));
        assertThrows(IllegalArgumentException.class, () -> SeedStream.life(1));
        assertThrows(IllegalArgumentException.class, () -> new SeededEntropy(1).child(SeedStream.LIFE));
        assertThrows(IllegalArgumentException.class, () -> SeedStream.LIFE.of(new SeededEntropy(1)));
    }
}
