/**
 * Workloads (prompts, phases, concurrency) and the driver that runs them against the core on any loop.
 */
package dev.kvtier.sim.workload;
