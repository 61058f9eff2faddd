/**
 * Calibration: a disk into a device profile and this machine's core into a host cost profile
 * ({@link dev.kvtier.lab.calibrate.Calibrate}), and the profiles a sign-off or the fidelity matrix simulates on,
 * calibrated or given ({@link dev.kvtier.lab.calibrate.Calibrated}).
 */
package dev.kvtier.lab.calibrate;
