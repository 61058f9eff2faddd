/** Regression gates: a scenario against the baseline its {@code [gate]} names, in virtual time. */
package dev.kvtier.lab.gate;
