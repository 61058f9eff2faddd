/**
 * The real run's composition root ({@link dev.kvtier.realio.run.RealRun}): the core, the shared workload driver,
 * checkers and metrics on a real disk: an L2 device and the crash-safe index's device, opened with O_DIRECT
 * ({@code RealDevices}) and driven by one wall-clock loop through {@link dev.kvtier.realio.run.DevicePair}. It takes
 * a mode-neutral {@code RunSpec} and a {@link dev.kvtier.realio.run.RealTarget} (where and how to do I/O), never the
 * simulator's settings.
 */
package dev.kvtier.realio.run;
