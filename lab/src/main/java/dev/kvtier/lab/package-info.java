/**
 * kvtier's laboratory: the experiments that run over both worlds, between the composition roots ({@code SimRun} in
 * {@code sim}, {@code RealRun} in {@code realio}) and the command line. One API runs a scenario in either mode
 * ({@link dev.kvtier.lab.run.Runs}); around it, each package is one kind of experiment: a run with its journal and
 * report ({@code run}), exploration and its merge ({@code explore}), sign-off ({@code signoff}), the fidelity matrix
 * ({@code fidelity}), calibration ({@code calibrate}), gates, sweeps and baselines, disk benchmarks ({@code bench}).
 * Each takes a request record and returns an exit code ({@link dev.kvtier.lab.ExitCodes}); the CLI only parses its
 * options into that record and prints. This package holds what they all share: exit codes, default output paths, the
 * build's commit stamp.
 */
package dev.kvtier.lab;
