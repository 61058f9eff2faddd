package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code calibrate --host-run-device}: the host profile's byte work bandwidths come from a real run, and say so. */
class CalibrateHostRunTest {
    @TempDir(factory = TargetTempDir.class)
    Path dir;

    @Test
    void shouldTakeTheByteWorkBandwidthsFromARealRunOnTheGivenDevice() throws IOException {
        final CliRun r = CliRun.of("calibrate", "--device", dir.resolve("scratch.bin").toString(), "--quick",
            "--no-fio", "--out", dir.resolve("d.toml").toString(), "--host-out", dir.resolve("h.toml").toString(),
            "--host-run-device", dir.resolve("l2.bin").toString());
        assertEquals(ExitCodes.OK, r.exitCode(), r.err());
        assertTrue(r.out().contains("== host calibration run: pr90-evict-small model.layers=4"), r.out());
        assertTrue(r.out().contains("host byte work on the loop thread: copies "), r.out());
        final String host = Files.readString(dir.resolve("h.toml"));
        assertTrue(host.contains("# byte work bandwidths from a real run of pr90-evict-small model.layers=4"), host);
        assertTrue(host.contains("# the microbenchmarks' figures"), host);
        assertTrue(host.matches("(?s).*# byte work (settled within 3 %|NOT settled) after [2-5] pair\\(s\\) of runs "
            + "\\(the first, a warm-up, not kept; [1-4] kept\\): copy .*"), host);
        assertTrue(host.contains("# conditions: cpus "), "the profile says what it was measured on: " + host);
        assertTrue(r.out().contains("conditions: "), r.out());
        assertTrue(Files.exists(dir.resolve("l2.bin")), "the run's L2 file is made where asked");
    }

    @Test
    void shouldRefuseTheCalibrationScratchFileAsTheRunsDevice() {
        final Path scratch = dir.resolve("scratch.bin");
        final CliRun r = CliRun.of("calibrate", "--device", scratch.toString(), "--quick", "--no-fio", "--out",
            dir.resolve("d.toml").toString(), "--host-out", dir.resolve("h.toml").toString(), "--host-run-device",
            scratch.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode());
        assertTrue(r.err().contains("--host-run-device must not be the calibration's --device"), r.err());
        assertFalse(Files.exists(scratch), "refused before anything is written");
    }
}
