package dev.kvtier.realio.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.port.IoOp;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.realio.testkit.Scratch;
import dev.kvtier.realio.testkit.Uring;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class DeviceCalibrationTest {

    @Test
    void shouldWriteAProfileWithTheSevenKeysAndEveryMeasurement() throws Exception {
        Uring.assumeAvailable();
        try (Scratch scratch = new Scratch()) {
            final Path toml = scratch.file("profile.toml");
            final ByteArrayOutputStream log = new ByteArrayOutputStream();
            final int rc = DeviceCalibration.run(scratch.file("cal.bin"), toml, "test-disk", true,
                new PrintStream(log, true, StandardCharsets.UTF_8));
            assertEquals(0, rc, log.toString(StandardCharsets.UTF_8));
            final String text = Files.readString(toml);
            assertTrue(text.contains("\nname = \"test-disk\"\n"), text);
            for (final String key : List.of("readLatencyNs", "writeLatencyNs", "flushLatencyNs", "readBytesPerSec",
                "writeBytesPerSec", "parallelism")) {
                final Matcher m = Pattern.compile("(?m)^" + key + " = (\\d+)$").matcher(text);
                assertTrue(m.find(), key + " in\n" + text);
                assertTrue(Long.parseLong(m.group(1)) > 0, key);
            }
            assertEquals(12, text.split("\\[\\[measurement]]", -1).length - 1, "2 ops x 2 blocks x 3 depths");
            assertTrue(text.contains("op = \"read\"\nblockBytes = 1048576\ndepth = 16\nbytesPerSec = "), text);
        }
    }

    @Test
    void shouldEscapeStringsAndNeverWriteABareNewline() {
        assertEquals("\"a\\\"b\\\\c\\nd\"", ProfileToml.string("a\"b\\c\nd"));
        final Calibration p = new Calibration(new DeviceProfile("x", 1, 2, 3, 4, 5, 6),
            List.of(new Measurement(IoOp.WRITE, 4096, 1, 10, 2, 500, 20, 0)));
        final String text = ProfileToml.write(p, "");
        assertTrue(text.startsWith("name = \"x\"\nreadLatencyNs = 1\n"), text);
        assertTrue(text.endsWith("""
            [[measurement]]
            op = "write"
            blockBytes = 4096
            depth = 1
            bytesPerSec = 10
            iops = 2
            meanLatencyNs = 500
            """), text);
    }

    @Test
    void shouldRefuseAPlanWithoutTheCellsTheProfileNeeds() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> new DeviceCalibration.Plan(List.of(4096L), List.of(1, 16, 32), 1, 64L << 20, 1));
    }
}
