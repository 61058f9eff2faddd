package dev.kvtier.cli;

import dev.kvtier.scenarios.Profiles;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.lab.calibrate.CalibrationChoice;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * How a command that compares a real run with a simulated one gets its profiles: given ({@code --profile},
 * {@code --host-profile}) or calibrated on this machine ({@code --quick-calibration}, {@code --no-fio}). Shared by
 * {@code signoff} and {@code fidelity}.
 */
public final class CalibrationOptions {
    @Option(names = "--profile", paramLabel = "DEVICE.toml", description = "use this device profile, do not calibrate")
    Path profile;

    @Option(names = "--host-profile", paramLabel = "HOST.toml",
        description = "use this host cost profile, do not measure the core")
    Path hostProfile;

    @Option(names = "--quick-calibration", description = "calibrate the disk in seconds rather than minutes")
    boolean quickCalibration;

    @Option(names = "--no-fio", description = "skip fio in the calibration even when it is installed")
    boolean noFio;

    /** The choice the flags make, for lab. */
    public CalibrationChoice choice() {
        return new CalibrationChoice(profile, hostProfile, quickCalibration, !noFio);
    }

    /** Loads the given profiles (either may be absent) so that a bad one is refused before anything is written. */
    void check() throws ScenarioException {
        if (profile != null) {
            Profiles.device("signoff", "--profile", profile.toAbsolutePath().toString(), null);
        }
        if (hostProfile != null) {
            Profiles.host("signoff", "--host-profile", hostProfile.toAbsolutePath().toString(), null);
        }
    }
}
