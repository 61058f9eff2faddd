/**
 * The simulated L2 device: a latency, parallelism and shared-bandwidth service model, with bundled profiles.
 */
package dev.kvtier.sim.device;
