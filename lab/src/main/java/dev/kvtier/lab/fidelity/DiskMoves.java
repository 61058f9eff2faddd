package dev.kvtier.lab.fidelity;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.realio.calibrate.DiskRecheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How far the disk moved from its calibration while a sitting ran: the profile's two bandwidth cells measured again
 * before each scenario's real runs and once after the last ({@link DiskRecheck}). A scenario whose recheck found
 * either cell moved more than {@link #WARN} is simulated on the rechecked bandwidths ({@link #rechecked}): its real
 * runs ran on that disk, not on the calibration's. Otherwise the simulation keeps the sitting's one calibration (a
 * recheck's few seconds are noisier than the calibration's rounds).
 */
final class DiskMoves {
    /** A move beyond this (either cell, either way) is named in the report's notes as a warning. */
    static final double WARN = 0.05;

    private final DeviceProfile profile;
    private final List<String> labels = new ArrayList<>();
    private final List<DiskRecheck.Figures> figures = new ArrayList<>();
    private final List<String> simulatedRechecked = new ArrayList<>();
    private int skipped;

    DiskMoves(final DeviceProfile profile) {
        this.profile = profile;
    }

    /** One recheck, {@code at} naming when ("before s601-01-evict", "after the last"); empty when it failed. */
    void add(final String at, final Optional<DiskRecheck.Figures> f) {
        if (f.isEmpty()) {
            skipped++;
            return;
        }
        labels.add(at);
        figures.add(f.get());
    }

    /**
     * The device profile to simulate the scenario after recheck {@code f} on: {@code profile} with the rechecked read
     * and write bandwidths when either moved more than {@link #WARN} from it (its latencies and parallelism kept);
     * empty when neither did, or there was no recheck.
     */
    static Optional<DeviceProfile> rechecked(final DeviceProfile profile,
                                             final Optional<DiskRecheck.Figures> f) {
        if (f.isEmpty() || (Math.abs(f.get().readMove(profile)) <= WARN
            && Math.abs(f.get().writeMove(profile)) <= WARN)) {
            return Optional.empty();
        }
        return Optional.of(new DeviceProfile(profile.name() + "/rechecked", profile.readLatencyNs(),
            profile.writeLatencyNs(), profile.flushLatencyNs(), f.get().readBps(), f.get().writeBps(),
            profile.parallelism(), profile.drainBytesPerSec(), profile.drainDelayNs()));
    }

    /** Says that {@code label} was simulated on the disk as rechecked before it. */
    void simulatedRechecked(final String label) {
        simulatedRechecked.add(label);
    }

    /** The largest move of either cell from the calibration, signed (0 when nothing was rechecked). */
    double largest() {
        double worst = 0;
        for (final DiskRecheck.Figures f : figures) {
            for (final double m : new double[] {f.readMove(profile), f.writeMove(profile)}) {
                if (Math.abs(m) > Math.abs(worst)) {
                    worst = m;
                }
            }
        }
        return worst;
    }

    /** The report's lines: the range of each cell, every recheck, and a warning when the disk moved beyond 5 %. */
    List<String> notes() {
        final List<String> out = new ArrayList<>();
        if (figures.isEmpty()) {
            if (skipped > 0) {
                out.add("the disk was not rechecked during the sitting (" + skipped + " recheck(s) failed)");
            }
            return out;
        }
        double rMin = Double.MAX_VALUE;
        double rMax = -Double.MAX_VALUE;
        double wMin = Double.MAX_VALUE;
        double wMax = -Double.MAX_VALUE;
        final StringBuilder each = new StringBuilder();
        for (int i = 0; i < figures.size(); i++) {
            final DiskRecheck.Figures f = figures.get(i);
            rMin = Math.min(rMin, f.readMove(profile));
            rMax = Math.max(rMax, f.readMove(profile));
            wMin = Math.min(wMin, f.writeMove(profile));
            wMax = Math.max(wMax, f.writeMove(profile));
            each.append(i == 0 ? "" : "; ").append(labels.get(i)).append(": ").append(f.describe(profile));
        }
        out.add(String.format(Locale.ROOT, "the disk during the sitting (the profile's two bandwidth cells measured "
            + "again %d time(s), before each scenario's real runs and after the last; a scenario after a recheck that"
            + " moved more than %.0f %% is simulated on the rechecked bandwidths, the others on the calibration):"
            + " read %+.0f .. %+.0f %%, write %+.0f .. %+.0f %% of the calibration", figures.size(), 100 * WARN,
            100 * rMin, 100 * rMax, 100 * wMin, 100 * wMax));
        out.add("the disk, recheck by recheck: " + each);
        if (!simulatedRechecked.isEmpty()) {
            out.add("simulated on the disk as rechecked before them (disk/LABEL.toml): "
                + String.join(", ", simulatedRechecked));
        }
        final double worst = largest();
        if (Math.abs(worst) > WARN) {
            out.add(String.format(Locale.ROOT, "WARNING: the disk moved up to %+.0f %% from its calibration during "
                + "the sitting: a recheck holds for the few seconds it measured, so a bias of that order may still be "
                + "the disk's, not the model's", 100 * worst));
        }
        return out;
    }
}
