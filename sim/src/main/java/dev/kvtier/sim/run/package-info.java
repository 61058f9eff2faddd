/**
 * The simulator's composition root (SimRun), its spec and its report.
 */
package dev.kvtier.sim.run;
