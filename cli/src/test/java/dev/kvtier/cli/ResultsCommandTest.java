package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.results.ResultInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvtier results index} and {@code --check}; {@code calibrate --results}, which writes its profiles as a
 * result and rewrites the index.
 */
class ResultsCommandTest {
    @TempDir(factory = TargetTempDir.class)
    Path dir;

    @Test
    void shouldWriteTheIndexAndCheckIt() throws IOException {
        final Path root = dir.resolve("results");
        assertEquals(ExitCodes.BAD_INPUT, CliRun.of("results", "index", "--dir", root.toString()).exitCode(),
            "no such directory");
        Files.createDirectories(root.resolve("notes"));
        Files.writeString(root.resolve("notes/a.md"), "# a\n");
        final CliRun stale = CliRun.of("results", "index", "--dir", root.toString(), "--check");
        assertEquals(ExitCodes.GATE, stale.exitCode());
        assertTrue(stale.err().contains("README.md is missing: run ./kvtier results index --dir " + root), stale.err());
        assertFalse(Files.exists(root.resolve("README.md")), "--check writes nothing");
        assertEquals(ExitCodes.OK, CliRun.of("results", "index", "--dir", root.toString()).exitCode());
        assertTrue(Files.readString(root.resolve("README.md")).contains("- [a.md](notes/a.md)"));
        assertEquals(ExitCodes.OK, CliRun.of("results", "index", "--dir", root.toString(), "--check").exitCode());
        Files.writeString(root.resolve("2026-12-03-stray.md"), "moved by hand\n");
        final CliRun stray = CliRun.of("results", "index", "--dir", root.toString(), "--check");
        assertEquals(ExitCodes.GATE, stray.exitCode());
        assertTrue(stray.err().contains("2026-12-03-stray.md: not part of the layout"), stray.err());
    }

    @Test
    void shouldWriteACalibrationAsAResultWithItsProfiles() throws IOException {
        final Path root = dir.resolve("results");
        Files.createDirectories(root);
        assertEquals(ExitCodes.OK, CliRun.of("results", "index", "--dir", root.toString()).exitCode());
        final CliRun both = CliRun.of("calibrate", "--device", dir.resolve("scratch.bin").toString(), "--quick",
            "--no-fio", "--results", root.toString(), "--out", dir.resolve("d.toml").toString());
        assertEquals(ExitCodes.BAD_INPUT, both.exitCode());
        assertTrue(both.err().contains("without --out and --host-out"), both.err());
        final CliRun r = CliRun.of("calibrate", "--device", dir.resolve("scratch.bin").toString(), "--quick",
            "--no-fio", "--results", root.toString(), "--why", "a look at this disk");
        assertEquals(ExitCodes.OK, r.exitCode(), r.err());
        final List<Path> folders;
        try (Stream<Path> s = Files.list(root.resolve("calibrations"))) {
            folders = s.toList();
        }
        assertEquals(1, folders.size(), folders.toString());
        final Path folder = folders.getFirst();
        assertTrue(folder.getFileName().toString().matches("\\d{4}-\\d{2}-\\d{2}-\\d{4}-calibrate-.+"),
            folder.toString());
        assertTrue(Files.readString(folder.resolve("device.toml")).contains("name = \"calibrated\""));
        assertTrue(Files.readString(folder.resolve("host.toml")).contains("name = \"calibrated-host\""));
        final ResultInfo info = ResultInfo.read(folder);
        assertEquals(List.of("calibration", "calibrate", "a look at this disk"), List.of(info.kind(), info.scenario(),
            info.why()));
        assertTrue(info.conditions().contains("quick plan"), info.conditions());
        assertTrue(Files.readString(root.resolve("README.md")).contains("calibrations/" + folder.getFileName()
            + "/device.toml"), "the index is rewritten with the new result");
        assertEquals(ExitCodes.OK, CliRun.of("results", "index", "--dir", root.toString(), "--check").exitCode());
    }
}
