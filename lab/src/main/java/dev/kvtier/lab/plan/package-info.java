/**
 * Capacity planning ({@code kvtier plan}): a scenario, usually a trace, run in virtual time over a grid of L1 and L2
 * sizes and L2 admission policies, with each cell's hit ratio by tier, latencies, L2 bandwidth and drive writes per
 * day beside the trace's ideal hit ratio; sharded over machines and merged like an exploration.
 */
package dev.kvtier.lab.plan;
