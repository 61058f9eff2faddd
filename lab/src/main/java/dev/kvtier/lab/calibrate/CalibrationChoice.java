package dev.kvtier.lab.calibrate;

import java.nio.file.Path;

/**
 * How a command that compares a real run with a simulated one gets its profiles: given, or calibrated on this machine.
 *
 * @param profile     a device profile to take instead of calibrating, or null
 * @param hostProfile a host cost profile to take instead of measuring the core, or null
 * @param quick       calibrate the disk in seconds rather than minutes
 * @param fio         run fio side by side in the calibration (when it is installed)
 */
public record CalibrationChoice(Path profile, Path hostProfile, boolean quick, boolean fio) {}
