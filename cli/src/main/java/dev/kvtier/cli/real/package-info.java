/**
 * Real-I/O runs: the composition root that puts the core and the workload driver on a real disk (an L2 device and the
 * crash-safe index's device, driven by one wall-clock loop through {@link dev.kvtier.cli.real.DevicePair}), and the
 * recovery benchmark.
 */
package dev.kvtier.cli.real;
