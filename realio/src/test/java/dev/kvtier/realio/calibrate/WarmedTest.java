package dev.kvtier.realio.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class WarmedTest {
    /** A measurement that is slow for its first {@code slowRuns} runs (the JIT not done yet), then fast. */
    private static final class Warming implements Warmed.Timed {
        private final int slowRuns;
        private int runs;

        Warming(final int slowRuns) {
            this.slowRuns = slowRuns;
        }

        @Override
        public long runNs() {
            return ++runs <= slowRuns ? 100_000_000L : 10_000_000L;
        }
    }

    @Test
    void shouldTimeTheCompiledCodeOnceTheWarmUpTimeIsSpent() {
        final Warming t = new Warming(10);
        assertEquals(10_000_000.0, new Warmed(3, 1_500_000_000L).best(t), "1 s slow, then 0.5 s fast, then timed");
        assertEquals(10 + 50 + 5, t.runs);
    }

    @Test
    void shouldTimeWhateverRunsFirstWithoutAWarmUp() {
        final Warming t = new Warming(10);
        assertEquals(100_000_000.0, new Warmed(3, 0).best(t), "five timed runs, all before the code was compiled");
        assertEquals(5, t.runs);
    }

    @Test
    void shouldRefuseNoRoundsOrANegativeWarmUp() {
        assertThrows(IllegalArgumentException.class, () -> new Warmed(0, 0));
        assertThrows(IllegalArgumentException.class, () -> new Warmed(1, -1));
    }
}
