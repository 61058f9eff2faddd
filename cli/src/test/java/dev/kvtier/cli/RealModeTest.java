package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code kvtier run --mode real} on a real temporary file (O_DIRECT, io_uring or the FileChannel fallback). */
class RealModeTest {
    private static final String SMALL = TinyScenario.text("real-small", "");


    private static Path dir() throws IOException {
        final Path d = Path.of("target", "real-mode-test");
        Files.createDirectories(d);
        return d;
    }

    @Test
    void shouldRunAgainstARealFileAndVerifyEveryLoadedByte() throws IOException {
        for (final String io : new String[] {"auto", "filechannel"}) {
            final Path scenario = dir().resolve("real-small.toml");
            Files.writeString(scenario, SMALL);
            final Path report = dir().resolve("report-" + io + ".json");
            final Path l2 = dir().resolve("l2-" + io + ".bin");
            Files.deleteIfExists(l2);
            assertEquals(ExitCodes.OK, Main.execute("run", scenario.toString(), "--mode", "real", "--device",
                l2.toString(), "--io", io, "--report", report.toString()), io);
            final JsonNode r = ReportJson.mapper().readTree(Files.readString(report));
            assertEquals("real", r.get("mode").stringValue());
            assertEquals(0, r.get("invariantViolations").intValue());
            assertEquals(0, r.get("metrics").get("wrongBytes").longValue());
            assertTrue(r.get("metrics").get("loadedBytes").longValue() > 0);
            assertTrue(r.get("metrics").get("l2Reads").longValue() > 0, "L1 holds half: some loads read L2");
        }
    }

    @Test
    void shouldExitTwoWithOneLineWhenTheDeviceCannotBeOpened() throws IOException {
        final Path scenario = dir().resolve("real-small.toml");
        Files.writeString(scenario, SMALL);
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", scenario.toString(), "--mode", "real", "--device",
            "/proc/no-such-dir/l2.bin"));
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", scenario.toString(), "--mode", "real"));
        assertEquals(ExitCodes.BAD_INPUT, Main.execute("run", scenario.toString(), "--mode", "real", "--device",
            dir().resolve("x.bin").toString(), "--io", "spdk"));
    }
}
