package dev.kvtier.realio.calibrate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.profile.HostCostProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The host profile holds every cost a real run pays on its thread, the content and per-event ones included. */
class HostCalibrationTest {

    @Test
    void shouldMeasureContentCostsAndTheObserversPerEvent() {
        final HostCostProfile p = HostCalibration.measure("t", 1, 256 * 1024, 0);
        assertTrue(p.memcpyBytesPerSec() > 0 && p.checksumBytesPerSec() > 0 && p.verifyBytesPerSec() > 0
            && p.stampBytesPerSec() > 0 && p.checksumCopiedBytesPerSec() > 0, p.toString());
        assertTrue(p.eventNs() >= 0, p.toString());
        assertTrue(p.engineOnServerThread(), "a real run's engine shares the server's loop thread");
        final String toml = HostCalibration.toml(p);
        assertTrue(toml.contains("\nengineOnServerThread = true\n"), toml);
        for (final String key : List.of("checksumBytesPerSec", "verifyBytesPerSec", "stampBytesPerSec", "eventNs",
            "checksumCopiedBytesPerSec")) {
            assertTrue(toml.contains("\n" + key + " = "), key + " in\n" + toml);
        }
    }
}
