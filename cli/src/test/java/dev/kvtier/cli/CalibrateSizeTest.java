package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.lab.calibrate.Calibrate;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.scenarios.ScenarioLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code calibrate --scenario} measures a file the size of the run's L2 unless {@code --size} says otherwise: a disk
 * behind a cache writes a small file faster than the run's, so a 1 GiB default would calibrate a faster disk.
 */
class CalibrateSizeTest {
    private static final long MIB = 1L << 20;

    @Test
    void shouldCalibrateOnAFileTheSizeOfTheScenariosL2() throws Exception {
        final CoreConfig core = ScenarioLoader.load("pr90-evict-small", List.of()).spec().core();
        final long l2 = core.l2Bytes();
        final long size = Calibrate.fileBytes(0, false, core);
        assertEquals(0, size % MIB, "whole MiB");
        assertEquals(Math.ceilDiv(l2, MIB) * MIB, size);
    }

    @Test
    void shouldKeepAnExplicitSizeTheQuickPlanAndTheDefaultWithoutAScenario() throws Exception {
        final CoreConfig core = ScenarioLoader.load("pr90-evict-small", List.of()).spec().core();
        assertEquals(256 * MIB, Calibrate.fileBytes(256 * MIB, false, core));
        assertEquals(0, Calibrate.fileBytes(0, true, core), "--quick keeps its 64 MiB plan");
        assertEquals(0, Calibrate.fileBytes(0, false, null), "no scenario: the plan's 1 GiB");
    }
}
