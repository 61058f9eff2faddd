package dev.kvtier.realio.calibrate;

import dev.kvtier.harness.profile.DeviceProfile;
import java.util.List;
import java.util.Objects;

/**
 * A calibrated disk: the device profile the simulator takes, the measurements it was derived from, what the
 * calibration checked, and why its figures are suspect (if they are).
 *
 * <p>The profile's numbers: read and write latency are the mean latencies of 4 KiB I/Os at depth 1, flush latency
 * the mean latency of a flush after a 4 KiB write, the bandwidths those of the run's largest read and write at the
 * run's depth ({@link RunShape}; the median of the side-by-side rounds when fio ran), and parallelism the IOPS of
 * 4 KiB reads at depth 32 times the 4 KiB read latency, rounded, in [1, 1024].
 *
 * @param profile      the device profile
 * @param measurements every cell measured, in the order measured
 * @param comparisons  kvtier's meter against fio on the same file, cell by cell (empty when fio did not run)
 * @param notes        what the calibration did and checked, one line each (preconditioning, fio, buffers)
 * @param suspect      why a figure is not to be trusted, one line each; empty when none is suspect
 */
public record Calibration(DeviceProfile profile, List<Measurement> measurements,
                          List<SideBySide.Comparison> comparisons, List<String> notes, List<String> suspect) {
    public Calibration {
        Objects.requireNonNull(profile, "profile");
        measurements = List.copyOf(measurements);
        comparisons = List.copyOf(comparisons);
        notes = List.copyOf(notes);
        suspect = List.copyOf(suspect);
    }

    /** A calibration with measurements only (nothing compared, noted or suspect). */
    public Calibration(final DeviceProfile profile, final List<Measurement> measurements) {
        this(profile, measurements, List.of(), List.of(), List.of());
    }
}
