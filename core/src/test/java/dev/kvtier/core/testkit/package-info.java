/**
 * Test doubles of core's ports and rigs built on them, for core's tests: heap memory, manual devices that complete
 * I/O when the test says (and model a crash), a recording event sink, and servers wired to them.
 */
package dev.kvtier.core.testkit;
