/**
 * Simulated memory that records each byte range's provenance instead of its bytes.
 */
package dev.kvtier.sim.memory;
