/** Micro-benchmarks of the journal (plain main classes, not run by the test suite). */
package dev.kvtier.journal.bench;
