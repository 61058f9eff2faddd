/**
 * Run figures from events, in either mode: bytes, hit ratio, I/O counts and HdrHistogram latencies.
 */
package dev.kvtier.harness.metrics;
