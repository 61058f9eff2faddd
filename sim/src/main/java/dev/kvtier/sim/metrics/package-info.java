/**
 * Run figures from events: bytes, hit ratio, I/O counts and HdrHistogram latencies.
 */
package dev.kvtier.sim.metrics;
