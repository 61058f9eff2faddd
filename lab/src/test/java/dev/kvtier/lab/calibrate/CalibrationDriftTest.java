package dev.kvtier.lab.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two calibrations compared: the same machine within 5 %, or the figures that moved and by how much. */
class CalibrationDriftTest {
    @Test
    void shouldSayTheSameMachineWhenEveryFigureIsWithinFivePerCent() {
        final List<CalibrationDrift.Figure> f = CalibrationDrift.compare(DeviceProfile.CI_EXT4,
            HostCostProfile.JAVA_CORE, DeviceProfile.CI_EXT4, HostCostProfile.JAVA_CORE);
        assertTrue(f.stream().noneMatch(CalibrationDrift.Figure::changed), f.toString());
        assertTrue(CalibrationDrift.describe("then", f).startsWith("against the previous calibration on this host "
            + "(then): the same machine, every figure within 5 %"), CalibrationDrift.describe("then", f));
    }

    @Test
    void shouldNameTheFiguresThatMovedAndByHowMuch() {
        final DeviceProfile d = DeviceProfile.CI_EXT4;
        final DeviceProfile faster = new DeviceProfile(d.name(), d.readLatencyNs(), d.writeLatencyNs(),
            d.flushLatencyNs(), d.readBytesPerSec(), Math.round(d.writeBytesPerSec() * 1.31), d.parallelism(),
            d.drainBytesPerSec(), d.drainDelayNs());
        final List<CalibrationDrift.Figure> f = CalibrationDrift.compare(d, HostCostProfile.JAVA_CORE, faster,
            HostCostProfile.JAVA_CORE);
        assertEquals(List.of("disk write bandwidth"), f.stream().filter(CalibrationDrift.Figure::changed)
            .map(CalibrationDrift.Figure::name).toList());
        assertTrue(CalibrationDrift.describe("then", f).contains("the machine changed: disk write bandwidth +31 %"),
            CalibrationDrift.describe("then", f));
    }
}
