/** Test support for the journal module: sample events, random events, a realistic event mix. */
package dev.kvtier.journal.testkit;
