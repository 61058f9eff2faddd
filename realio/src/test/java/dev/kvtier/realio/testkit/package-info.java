/**
 * Test support for realio: a scratch directory on the module's disk, an io_uring skip, a kernel that fails where a
 * test says, a heap device that posts its completions to the loop, and a completion collector.
 */
package dev.kvtier.realio.testkit;
