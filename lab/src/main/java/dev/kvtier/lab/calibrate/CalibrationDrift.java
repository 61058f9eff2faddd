package dev.kvtier.lab.calibrate;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.scenarios.Profiles;
import dev.kvtier.scenarios.ScenarioException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether the machine changed between two calibrations of it: each figure a simulation charges by (the disk's read
 * and write bandwidth and latency, the host's copy, checksum, check and fill bandwidths and its cost per copy), this
 * calibration's against the previous one's, and those that moved by more than {@link #CHANGED}. Two calibrations of
 * the same code on the same machine should agree within it; one that does not says by how much the machine changed.
 */
public final class CalibrationDrift {
    /** A figure that moved by more than this is a change of the machine (or of its mood). */
    public static final double CHANGED = 0.05;

    private CalibrationDrift() {}

    /** One figure, then and now. */
    public record Figure(String name, double then, double now) {
        /** now / then - 1. */
        public double change() {
            return then == 0 ? 0 : now / then - 1;
        }

        /** Whether it moved by more than {@link #CHANGED}. */
        public boolean changed() {
            return Math.abs(change()) > CHANGED;
        }
    }

    /** The figures of two pairs of profiles. */
    public static List<Figure> compare(final DeviceProfile dThen, final HostCostProfile hThen,
                                       final DeviceProfile dNow, final HostCostProfile hNow) {
        final List<Figure> out = new ArrayList<>();
        out.add(new Figure("disk read bandwidth", dThen.readBytesPerSec(), dNow.readBytesPerSec()));
        out.add(new Figure("disk write bandwidth", dThen.writeBytesPerSec(), dNow.writeBytesPerSec()));
        out.add(new Figure("disk read latency", dThen.readLatencyNs(), dNow.readLatencyNs()));
        out.add(new Figure("disk write latency", dThen.writeLatencyNs(), dNow.writeLatencyNs()));
        out.add(new Figure("copy bandwidth", hThen.memcpyBytesPerSec(), hNow.memcpyBytesPerSec()));
        out.add(new Figure("cost per copy", hThen.copyOpNs(), hNow.copyOpNs()));
        out.add(new Figure("checksum bandwidth", hThen.checksumBytesPerSec(), hNow.checksumBytesPerSec()));
        out.add(new Figure("checksum-after-copy bandwidth", hThen.checksumCopiedBytesPerSec(),
            hNow.checksumCopiedBytesPerSec()));
        out.add(new Figure("check bandwidth", hThen.verifyBytesPerSec(), hNow.verifyBytesPerSec()));
        out.add(new Figure("fill bandwidth", hThen.stampBytesPerSec(), hNow.stampBytesPerSec()));
        return out;
    }

    /**
     * One line against the previous calibration's profiles in {@code previous} (a result folder holding {@code
     * device.toml} and {@code host.toml}), or an empty list when it has none.
     */
    public static List<String> lines(final Path previous, final String previousName, final Path deviceNow,
                                     final Path hostNow) {
        final Path d = previous.resolve(Calibrated.DEVICE_TOML);
        final Path h = previous.resolve(Calibrated.HOST_TOML);
        if (!Files.isRegularFile(d) || !Files.isRegularFile(h)) {
            return List.of();
        }
        try {
            final List<Figure> figures = compare(Profiles.device("drift", "then", d.toString(), null),
                Profiles.host("drift", "then", h.toString(), null),
                Profiles.device("drift", "now", deviceNow.toString(), null),
                Profiles.host("drift", "now", hostNow.toString(), null));
            return List.of(describe(previousName, figures));
        } catch (final ScenarioException e) {
            return List.of("against the previous calibration " + previousName + ": not compared (" + e.getMessage()
                + ")");
        }
    }

    /** For example {@code against ...: the machine changed: disk write bandwidth +31 % ...; within 5 %: ...}. */
    static String describe(final String previousName, final List<Figure> figures) {
        final List<String> changed = new ArrayList<>();
        final List<String> same = new ArrayList<>();
        for (final Figure f : figures) {
            (f.changed() ? changed : same).add(String.format(Locale.ROOT, "%s %+.0f %%", f.name(),
                100 * f.change()));
        }
        return "against the previous calibration on this host (" + previousName + "): " + (changed.isEmpty()
            ? "the same machine, every figure within 5 %" : "the machine changed: " + String.join(", ", changed))
            + (same.isEmpty() ? "" : "; within 5 %: " + String.join(", ", same));
    }
}
