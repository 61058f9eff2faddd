package dev.kvtier.realio.calibrate;

import java.util.List;
import java.util.Objects;

/**
 * A measured device profile: the seven numbers the simulator's device model takes, and the measurements they
 * were derived from.
 *
 * @param readLatencyNs    mean latency of 4 KiB reads at depth 1
 * @param writeLatencyNs   mean latency of 4 KiB writes at depth 1
 * @param flushLatencyNs   mean latency of a flush after a 4 KiB write
 * @param readBytesPerSec  1 MiB reads at depth 16
 * @param writeBytesPerSec 1 MiB writes at depth 16
 * @param parallelism      IOPS of 4 KiB reads at depth 32 times the 4 KiB read latency, rounded, in [1, 1024]
 */
public record DeviceProfileData(String name, long readLatencyNs, long writeLatencyNs, long flushLatencyNs,
                                long readBytesPerSec, long writeBytesPerSec, int parallelism,
                                List<Measurement> measurements) {
    public DeviceProfileData {
        Objects.requireNonNull(name, "name");
        measurements = List.copyOf(measurements);
        if (readLatencyNs <= 0 || writeLatencyNs <= 0 || flushLatencyNs <= 0 || readBytesPerSec <= 0
            || writeBytesPerSec <= 0) {
            throw new IllegalArgumentException("a profile's latencies and bandwidths must be positive: " + name
                + " " + readLatencyNs + "/" + writeLatencyNs + "/" + flushLatencyNs + " ns, " + readBytesPerSec
                + "/" + writeBytesPerSec + " B/s");
        }
        if (parallelism < 1 || parallelism > 1024) {
            throw new IllegalArgumentException("parallelism must be in [1, 1024], got " + parallelism);
        }
    }
}
