/** Architecture rules for {@code realio}: it shares run logic with the simulator through harness, never sim. */
package dev.kvtier.realio.arch;
