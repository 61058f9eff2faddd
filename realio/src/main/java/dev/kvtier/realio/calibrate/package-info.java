/**
 * Measuring a real device. {@link dev.kvtier.realio.calibrate.IoMeter} keeps a fixed number of random, aligned
 * I/Os in flight on a polled device for a fixed time, allocation-free, and reports bandwidth, IOPS and mean
 * latency. {@link dev.kvtier.realio.calibrate.DeviceCalibration} runs a matrix of block sizes and depths on the
 * io_uring device and writes a device profile (TOML) the simulator loads; {@code bench} reuses the meter.
 * {@link dev.kvtier.realio.calibrate.HostCalibration} times the real core's own work into a host cost profile.
 * Both profiles are {@code harness} types, the ones the simulator takes.
 */
package dev.kvtier.realio.calibrate;
