/**
 * The simulated devices: the L2 data device ({@code SimDevice}, provenance) and the metadata device
 * ({@code SimMetaDevice}, real bytes), sharing one latency, parallelism and shared-bandwidth service model
 * ({@code IoTimeline}, bundled {@code DeviceProfile}s), one volatile write cache and crash model
 * ({@code WriteCache}), and one seeded fault plan ({@code FaultPlan}: EIO, spikes, slowness, silent corruption,
 * misdirected writes, a full metadata disk, power loss). What both devices do alike (range check, scheduling a
 * completion that a crash cancels, FLUSH, power loss, counters) is {@code SimDeviceState}. The data device is built
 * with the simulated memory it moves provenance for and resolves regions through it; the metadata device moves
 * bytes through the Memory port.
 */
package dev.kvtier.sim.device;
