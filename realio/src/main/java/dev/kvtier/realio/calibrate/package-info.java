/**
 * Measuring a real device. {@link dev.kvtier.realio.calibrate.IoMeter} keeps a fixed number of random, aligned
 * I/Os in flight on a polled device for a fixed time, allocation-free, and reports bandwidth, IOPS and mean
 * latency; it reads only what it wrote in the same run (a full write pass first, sampled pages read back), because a
 * range never written reads as zeros without touching the disk. {@link dev.kvtier.realio.calibrate.DeviceCalibration}
 * runs a matrix of block sizes and depths and the cells a run issues ({@link dev.kvtier.realio.calibrate.RunShape})
 * on the io_uring device, compares the profile's bandwidth cells with fio on the same file, side by side
 * ({@link dev.kvtier.realio.calibrate.SideBySide}, {@link dev.kvtier.realio.calibrate.FioRunner}), calls a figure
 * above fio's or above a limit suspect, and {@link dev.kvtier.realio.calibrate.CalibrationRun} writes the device
 * profile (TOML) the simulator loads, unless a figure is suspect; {@code bench} reuses the meter and fio.
 * {@link dev.kvtier.realio.calibrate.HostCalibration} times the real core's own work into a host cost profile. Both
 * profiles are {@code harness} types, the ones the simulator takes.
 */
package dev.kvtier.realio.calibrate;
