/**
 * The virtual run's composition root ({@link dev.kvtier.sim.run.SimRun}): one core on simulated devices and memory,
 * the host cost model and the shared workload driver, checkers and metrics, on the virtual clock; and
 * {@link dev.kvtier.sim.run.SimModel}, what only a simulated run takes besides the mode-neutral {@code RunSpec}.
 */
package dev.kvtier.sim.run;
