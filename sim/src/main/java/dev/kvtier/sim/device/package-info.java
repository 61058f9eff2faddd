/**
 * The simulated devices: the L2 data device ({@code SimDevice}, provenance) and the metadata device
 * ({@code SimMetaDevice}, real bytes), sharing one latency, parallelism and shared-bandwidth service model
 * ({@code IoTimeline}, bundled {@code DeviceProfile}s), one volatile write cache and crash model
 * ({@code WriteCache}), and one seeded fault plan ({@code FaultPlan}: EIO, spikes, slowness, silent corruption,
 * misdirected writes, a full metadata disk, power loss).
 */
package dev.kvtier.sim.device;
