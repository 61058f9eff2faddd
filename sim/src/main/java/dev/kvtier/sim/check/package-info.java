/**
 * Invariant checkers: one class per family of STORAGE-CORE.md section 7, each with its own reference model built from events.
 */
package dev.kvtier.sim.check;
