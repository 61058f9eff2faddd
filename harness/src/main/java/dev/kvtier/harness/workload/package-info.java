/**
 * Workloads (prompts, phases, concurrency) and the driver that runs them against the core on any loop: the
 * simulator's virtual one or the real wall-clock one.
 */
package dev.kvtier.harness.workload;
