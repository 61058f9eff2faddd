package dev.kvtier.realio.calibrate;

import dev.kvtier.harness.profile.DeviceProfile;
import java.util.List;
import java.util.Objects;

/**
 * A calibrated disk: the device profile the simulator takes, and the measurements it was derived from.
 *
 * <p>The profile's numbers: read and write latency are the mean latencies of 4 KiB I/Os at depth 1, flush latency
 * the mean latency of a flush after a 4 KiB write, the bandwidths those of 1 MiB I/Os at depth 16, and parallelism
 * the IOPS of 4 KiB reads at depth 32 times the 4 KiB read latency, rounded, in [1, 1024].
 *
 * @param profile      the device profile
 * @param measurements every cell measured, in the order measured
 */
public record Calibration(DeviceProfile profile, List<Measurement> measurements) {
    public Calibration {
        Objects.requireNonNull(profile, "profile");
        measurements = List.copyOf(measurements);
    }
}
