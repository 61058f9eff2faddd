/** Real-I/O runs: the composition root that puts the core and the workload driver on a real disk. */
package dev.kvtier.cli.real;
