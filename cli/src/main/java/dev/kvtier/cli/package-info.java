/**
 * The kvtier command line (picocli): one command class a command, each parsing its options into a request of
 * {@code lab} ({@code dev.kvtier.lab}), calling it and returning its exit code, plus the option mixins commands share.
 * Nothing here runs or wires a run, and no command refers to another ({@code CliRulesTest}); {@link Main} registers
 * them all.
 */
package dev.kvtier.cli;
