package dev.kvtier.lab.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Kill points read back as written, refuse what they cannot mean, and are drawn over every part of a run's life. */
class KillPointTest {
    private static final Life LIFE = new Life(11, List.of(new Life.Phase("cold", 4870), new Life.Phase("warm", 250)),
        List.of(8L), 6, 5137, 2_000_000_000L);

    @Test
    void shouldReadBackWhatItWrites() {
        for (final String text : List.of("setup+3", "cold+812", "checkpoint.1+2", "shutdown+5", "end", "warm+0")) {
            assertEquals(text, KillPoint.parse(text).toString());
        }
        assertEquals(new KillPoint("cold", 0, 0), KillPoint.parse("cold"));
    }

    @Test
    void shouldRefuseAPointItCannotMean() {
        for (final String bad : List.of("", "+3", "cold+-1", "checkpoint+2", "checkpoint.0+1", "cold.2+1", "end+1",
            "9cold+1", "cold+1+2")) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KillPoint.parse(bad), bad);
            assertTrue(e.getMessage().contains("--kill-at"), e.getMessage());
        }
    }

    @Test
    void shouldDrawTheSamePointForAKillAndSpreadKillsOverTheWholeLife() {
        final Map<String, Integer> byAnchor = new TreeMap<>();
        for (long kill = 1; kill <= 1000; kill++) {
            final KillPoint p = KillPoint.draw(kill, LIFE);
            assertEquals(p, KillPoint.draw(kill, LIFE), "kill " + kill + " draws from its own stream");
            byAnchor.merge(p.anchor(), 1, Integer::sum);
            final long bound = switch (p.anchor()) {
                case "setup" -> LIFE.setupEvents();
                case "cold" -> 4870;
                case "warm" -> 250;
                case "checkpoint" -> 8;
                case "shutdown" -> LIFE.shutdownEvents();
                default -> 1;
            };
            assertTrue(p.offset() < bound, p + " lies within its part of the life");
        }
        assertEquals(List.of("checkpoint", "cold", "end", "setup", "shutdown", "warm"), List.copyOf(byAnchor.keySet()));
        assertTrue(Math.abs(byAnchor.get("cold") - byAnchor.get("warm")) < 80, "each phase as likely: " + byAnchor);
        assertTrue(byAnchor.get("checkpoint") > 150 && byAnchor.get("setup") > 60, byAnchor.toString());
    }

    @Test
    void shouldGiveACheckpointlessLifeNoCheckpointKill() {
        final Life none = new Life(11, LIFE.phases(), List.of(), 6, 5137, 1);
        for (long kill = 1; kill <= 300; kill++) {
            assertTrue(!KillPoint.draw(kill, none).anchor().equals(KillPoint.CHECKPOINT));
        }
    }
}
