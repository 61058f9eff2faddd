package dev.kvtier.cli;

import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code kvtier run --mode real} on a real temporary file (O_DIRECT, io_uring or the FileChannel fallback). */
class RealModeTest {
    private static final String SMALL = TinyScenario.text("real-small", "");
    /** 6 prompts of 16 one-slot keys, all in L2 (1.05 of the workload). */
    private static final int KEYS = 6 * 16;

    @TempDir(factory = TargetTempDir.class)
    Path dir;

    private Path scenario() throws IOException {
        final Path scenario = dir.resolve("real-small.toml");
        Files.writeString(scenario, SMALL);
        return scenario;
    }

    private JsonNode report(final Path report) throws IOException {
        return ReportJson.mapper().readTree(Files.readString(report));
    }

    @Test
    void shouldRunAgainstARealFileAndVerifyEveryLoadedByte() throws IOException {
        for (final String io : new String[] {"auto", "filechannel"}) {
            final Path report = dir.resolve("report-" + io + ".json");
            final Path l2 = dir.resolve("l2-" + io + ".bin");
            assertEquals(ExitCodes.OK, Main.execute("run", scenario().toString(), "--mode", "real", "--device",
                l2.toString(), "--io", io, "--report", report.toString()), io);
            final JsonNode r = report(report);
            assertEquals("real", r.get("mode").stringValue());
            assertEquals(0, r.get("invariantViolations").intValue());
            assertEquals(0, r.get("metrics").get("wrongBytes").longValue());
            assertTrue(r.get("metrics").get("loadedBytes").longValue() > 0);
            assertTrue(r.get("metrics").get("l2Reads").longValue() > 0, "L1 holds half: some loads read L2");
            assertTrue(Files.size(dir.resolve("l2-" + io + ".bin.index")) > 0, "the index beside the device");
            assertEquals(0, r.get("metrics").get("recoveredChunks").intValue(), "a fresh index");
            assertTrue(r.get("metrics").get("indexOpenNanos").longValue() > 0);
            // The byte work: every loaded byte was checked and every stored slot filled and copied, timed.
            final JsonNode m = r.get("metrics");
            assertEquals(m.get("loadedBytes").longValue(), m.get("verifyBytes").longValue(), io);
            assertEquals(m.get("storedBytes").longValue(), m.get("stampBytes").longValue(), io);
            assertTrue(m.get("copyBytes").longValue() >= m.get("storedBytes").longValue(), io);
            assertTrue(m.get("copyNanos").longValue() > 0 && m.get("verifyNanos").longValue() > 0, io);
            // The disk's own figures: every L2 read and write it completed, and how busy it was.
            assertTrue(m.get("diskWriteBytes").longValue() >= m.get("storedBytes").longValue(), io);
            assertTrue(m.get("diskReadBytes").longValue() > 0, io);
            final long busy = m.get("diskBusyNanos").longValue();
            assertTrue(busy > 0 && busy <= m.get("diskElapsedNanos").longValue(), io);
            final double depth = m.get("diskMeanQueueDepth").doubleValue();
            assertTrue(depth > 0 && depth <= 64, io + ": depth " + depth);
        }
    }

    @Test
    void shouldRecoverEveryCommittedKeyOnARestartAndVerifyItsBytes() throws IOException {
        for (final String mode : new String[] {"l1", "durable"}) {
            final Path l2 = dir.resolve("l2-" + mode + ".bin");
            final Path index = dir.resolve("index-" + mode);
            final Path first = dir.resolve("first-" + mode + ".json");
            final Path second = dir.resolve("second-" + mode + ".json");
            assertEquals(ExitCodes.OK, Main.execute("run", scenario().toString(), "--mode", "real", "--device",
                l2.toString(), "--index-device", index.toString(), "--set", "core.commitMode=" + mode, "--report",
                first.toString()), mode);
            assertEquals(ExitCodes.OK, Main.execute("run", scenario().toString(), "--mode", "real", "--device",
                l2.toString(), "--index-device", index.toString(), "--recover", "--set", "core.commitMode=" + mode,
                "--report", second.toString()), mode);
            final JsonNode m = report(second).get("metrics");
            assertEquals(KEYS, m.get("recoveredChunks").intValue(), mode + ": every key the first run committed");
            assertTrue(m.get("indexOpenNanos").longValue() > 0);
            assertTrue(m.get("indexBytesRead").longValue() > 0);
            assertEquals(0, m.get("wrongBytes").longValue());
            assertEquals(0, m.get("loadFailures").longValue(), mode + ": every recovered key loads");
            assertEquals(0, m.get("storedBytes").longValue(), mode + ": the cold phase found every prompt cached");
            assertEquals(2L * KEYS * 65536, m.get("loadedBytes").longValue(), mode + ": both phases loaded it all");
            assertEquals("durable".equals(mode), report(first).get("metrics").get("durableCommits").longValue() > 0);
        }
    }

    @Test
    void shouldExitOneWhenARestartedRunLoadsWrongBytes() throws IOException, ScenarioException {
        final Path l2 = dir.resolve("l2.bin");
        assertEquals(ExitCodes.OK, Main.execute("run", scenario().toString(), "--mode", "real", "--device",
            l2.toString()));
        final CoreConfig config = ScenarioLoader.load(scenario().toString(), List.of()).spec().core();
        final IndexFile index = new IndexFile(dir.resolve("l2.bin.index"), config);
        final IndexFile.State state = index.read();
        assertEquals(KEYS, state.chunks().size());
        // Two keys trade slots (each keeps the other's checksums): the checksums pass, the bytes are another key's.
        index.writeCheckpoint(state, IndexFile.swapFirstTwoKeys(state.chunks()));
        final CliRun run = CliRun.of("run", scenario().toString(), "--mode", "real", "--device", l2.toString(),
            "--recover");
        assertEquals(ExitCodes.INVARIANT, run.exitCode(), run.err());
        assertTrue(run.out().contains("recovered: " + KEYS + " chunks"), run.out());
        assertTrue(run.err().contains("invariant 12"), run.err());
    }

    @Test
    void shouldExitTwoWithOneLineWhenTheDeviceCannotBeOpened() throws IOException {
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", scenario().toString(), "--mode", "real", "--device",
            "/proc/no-such-dir/l2.bin"));
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", scenario().toString(), "--mode", "real"));
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", scenario().toString(), "--mode", "real", "--device",
            dir.resolve("x.bin").toString(), "--io", "spdk"));
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", scenario().toString(), "--recover"));
    }

    @Test
    void shouldExitTwoWithOneLineWhenTheIndexDeviceCannotBeUsed() throws IOException {
        final Path l2 = dir.resolve("l2.bin");
        assertEquals(ExitCodes.OK, Main.execute("run", scenario().toString(), "--mode", "real", "--device",
            l2.toString()));
        final CliRun foreign = CliRun.of("run", scenario().toString(), "--mode", "real", "--device", l2.toString(),
            "--recover", "--set", "core.l2Fraction=2");
        assertEquals(ExitCodes.BAD_INPUT, foreign.exitCode(), foreign.err());
        assertOneLine(foreign.err(), "another ring");
        final CliRun same = CliRun.of("run", scenario().toString(), "--mode", "real", "--device", l2.toString(),
            "--index-device", l2.toString());
        assertEquals(ExitCodes.BAD_INPUT, same.exitCode());
        assertOneLine(same.err(), "another file");
        final CliRun directory = CliRun.of("run", scenario().toString(), "--mode", "real", "--device", l2.toString(),
            "--index-device", dir.toString());
        assertEquals(ExitCodes.BAD_INPUT, directory.exitCode());
        assertOneLine(directory.err(), "--index-device");
    }

    private static void assertOneLine(final String err, final String mentions) {
        assertEquals(1, err.strip().lines().count(), err);
        assertTrue(err.contains(mentions), err);
        assertNotEquals(-1, err.indexOf("kvtier: "), err);
    }
}
