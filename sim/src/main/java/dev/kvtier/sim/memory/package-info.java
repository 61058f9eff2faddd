/**
 * Simulated memory that records each byte range's provenance instead of its bytes (KV data), with a small byte
 * layer per region for index metadata, which the core writes and reads as real bytes.
 */
package dev.kvtier.sim.memory;
