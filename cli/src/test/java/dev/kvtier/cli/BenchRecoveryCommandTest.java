package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvtier bench-recovery} on small rings: recovery must find exactly the chunks and records it built. */
class BenchRecoveryCommandTest {
    @TempDir(factory = TargetTempDir.class)
    Path dir;

    @Test
    void shouldRecoverExactlyTheCheckpointAndTheRecordsItBuilt() {
        final CliRun run = CliRun.of("bench-recovery", "--device", dir.resolve("index").toString(), "--slots", "600",
            "--slot-bytes", "65536", "--records", "900", "--repeat", "2");
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertTrue(run.out().contains("600 chunks live at the end"), run.out());
        assertEquals(2, run.out().lines().filter(l -> l.startsWith("open ")).count(), run.out());
        assertTrue(run.out().contains("per million records"), run.out());
    }

    @Test
    void shouldRefuseMoreRecordsThanOneLapOfTheLogHolds() {
        final CliRun run = CliRun.of("bench-recovery", "--device", dir.resolve("index").toString(), "--slots", "100",
            "--records", "100000", "--repeat", "1");
        assertEquals(ExitCodes.BAD_INPUT, run.exitCode());
        assertTrue(run.err().contains("do not fit in one lap"), run.err());
    }
}
