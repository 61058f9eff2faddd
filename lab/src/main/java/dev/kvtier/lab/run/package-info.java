/**
 * Running one scenario: {@link dev.kvtier.lab.run.Runs} hands a loaded scenario to its mode's composition root with a
 * journal beside it; {@link dev.kvtier.lab.run.RunJob} is {@code kvtier run} (memory check, journal, progress,
 * summary, warm repetitions, JSON report); {@link dev.kvtier.lab.run.Repeats} runs a scenario repeatedly, real or
 * simulated, for sign-off and the fidelity matrix.
 */
package dev.kvtier.lab.run;
