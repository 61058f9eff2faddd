/**
 * The kvtier command line (picocli): parses the options, hands each run to the composition root of its mode
 * ({@link dev.kvtier.cli.Dispatch}: {@code SimRun} in {@code sim}, {@code RealRun} in {@code realio}), and prints
 * summaries and reports. It wires no run itself.
 */
package dev.kvtier.cli;
