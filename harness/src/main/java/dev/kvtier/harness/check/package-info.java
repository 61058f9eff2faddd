/**
 * Invariant checkers: one class per family of docs/design/STORAGE-CORE.md section 7, each with its own reference model
 * built from events. Both runs use them: the virtual one at every simulated event, the real one at every wall-clock
 * event.
 */
package dev.kvtier.harness.check;
