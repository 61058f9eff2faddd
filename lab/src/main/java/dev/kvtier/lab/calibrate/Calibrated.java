package dev.kvtier.lab.calibrate;

import dev.kvtier.lab.run.Conditions;
import dev.kvtier.lab.run.Repeats;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.realio.calibrate.CalibrationRun;
import dev.kvtier.realio.calibrate.DeviceCalibration;
import dev.kvtier.realio.calibrate.RunShape;
import dev.kvtier.realio.calibrate.SideBySide;
import dev.kvtier.realio.files.Claim;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.scenarios.Profiles;
import dev.kvtier.scenarios.ScenarioException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The device and host profiles a sign-off or a fidelity matrix simulates on, calibrated on this machine or given, and
 * what the device calibration said about itself. The calibration measures a scratch file the caller has claimed
 * ({@link Outputs#claimScratch}: kvtier's own, locked, measured after kvtier's header) and gives up when done; the
 * profiles are written whole or not at all ({@link OutputFile}).
 *
 * @param deviceToml  the device profile's file
 * @param hostToml    the host cost profile's file
 * @param device      the device profile
 * @param host        the host cost profile
 * @param notes       what the device calibration did and checked (empty for a given profile)
 * @param suspect     why the calibrated device profile is suspect (empty when it is not, or was given)
 * @param comparisons the calibration's side-by-side rounds with fio (the disk's own spread is fio's)
 */
public record Calibrated(Path deviceToml, Path hostToml, DeviceProfile device, HostCostProfile host, List<String> notes,
                         List<String> suspect, List<SideBySide.Comparison> comparisons) {
    /** The device profile's file name in a result's folder. */
    public static final String DEVICE_TOML = "device.toml";
    /** The host cost profile's file name in a result's folder. */
    public static final String HOST_TOML = "host.toml";
    private static final long MIB = 1L << 20;

    public Calibrated {
        notes = List.copyOf(notes);
        suspect = List.copyOf(suspect);
        comparisons = List.copyOf(comparisons);
    }

    /** These profiles with another device profile, {@code device}, in the file {@code toml}. */
    public Calibrated withDevice(final Path toml, final DeviceProfile device) {
        return new Calibrated(toml, hostToml, device, host, notes, suspect, comparisons);
    }

    /**
     * What to calibrate, or which profiles to take.
     *
     * @param scratch       the claimed calibration file ({@code DEVICE.calibration}; the caller removes it if it
     *                      created it), or null when {@code deviceProfile} is given
     * @param shape         the run whose cells the calibration measures
     * @param fileBytes     the calibration file's size (rounded down to MiB, between 64 MiB and 8 GiB)
     * @param deviceProfile a device profile to take instead of calibrating, or null
     * @param hostProfile   a host cost profile to take instead of measuring, or null
     * @param deviceOut     where a calibrated device profile goes
     * @param hostOut       where a measured host profile goes
     * @param name          the profiles' name prefix (the host name)
     * @param quick         the quick plan
     * @param fio           fio side by side
     * @param hostRun       where the host calibration run runs ({@link HostRun}: the byte work's bandwidths come from
     *                      a real run), or null for the microbenchmarks' figures only
     */
    public record Request(Claim scratch, RunShape shape, long fileBytes, Path deviceProfile, Path hostProfile,
                          Path deviceOut,
                          Path hostOut, String name, boolean quick, boolean fio, Repeats.RealDevice hostRun) {}

    /** Calibrates or loads; empty (with the reason on {@code out} or stderr) when that failed. */
    public static Optional<Calibrated> of(final Request r, final PrintStream out) throws IOException {
        final Conditions.Sampler sampler = Conditions.start(r.scratch() != null ? r.scratch().path()
            : r.hostRun() != null ? r.hostRun().device() : null);
        final Path deviceToml = r.deviceProfile() != null ? r.deviceProfile() : r.deviceOut();
        List<String> notes = new ArrayList<>();
        List<String> suspect = List.of();
        List<SideBySide.Comparison> comparisons = List.of();
        if (r.deviceProfile() == null) {
            final Claim scratch = Objects.requireNonNull(r.scratch(), "scratch");
            out.println("== calibrating " + scratch.path() + " -> " + deviceToml);
            final long size = Math.clamp(r.fileBytes() / MIB * MIB, 64 * MIB, 8L << 30);
            final CalibrationRun.Outcome o = CalibrationRun
                .run(new CalibrationRun.Options(scratch.path(), scratch.baseOffset(), deviceToml,
                    r.name() + "-disk", r.quick(), r.shape(), size, new DeviceCalibration.Checks(r.fio(),
                        r.quick() ? 1 : 3, r.quick() ? 500_000_000L : 2_000_000_000L, 0, 0),
                    true), out, System.err);
            if (o.code() != CalibrationRun.OK) {
                return Optional.empty();
            }
            notes.addAll(o.calibration().notes());
            suspect = o.calibration().suspect();
            comparisons = o.calibration().comparisons();
        }
        final Path hostToml = r.hostProfile() != null ? r.hostProfile() : r.hostOut();
        if (r.hostProfile() == null
            && !HostRun.measure(r.name() + "-core", r.shape().slotBytes(), r.quick(), r.hostRun(), hostToml, out)) {
            return Optional.empty();
        }
        final Conditions now = sampler.end();
        notes.add("calibrated on " + now.describe());
        notes.addAll(ConditionsStamp.apply(r.deviceProfile() == null ? deviceToml : null, r.deviceProfile(), now));
        notes.addAll(ConditionsStamp.apply(r.hostProfile() == null ? hostToml : null, r.hostProfile(), now));
        notes.forEach(n -> {
            if (n.startsWith("WARNING")) {
                out.println(n);
            }
        });
        try {
            return Optional.of(new Calibrated(deviceToml, hostToml, Profiles.device("calibration", "--profile",
                deviceToml.toAbsolutePath().toString(), null),
                Profiles.host("calibration", "--host-profile",
                    hostToml.toAbsolutePath().toString(), null),
                notes, suspect, comparisons));
        } catch (final ScenarioException e) {
            System.err.println("kvtier: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** {@code sets} plus the overrides that point a scenario's simulation at these profiles. */
    public List<String> simSets(final List<String> sets) {
        final List<String> out = new ArrayList<>(sets);
        out.add("sim.device=" + deviceToml.toAbsolutePath());
        out.add("sim.host=" + hostToml.toAbsolutePath());
        return out;
    }
}
