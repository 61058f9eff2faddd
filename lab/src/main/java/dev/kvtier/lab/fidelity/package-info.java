/**
 * The held-out fidelity matrix: its entries and thresholds ({@link dev.kvtier.lab.fidelity.Matrix}), the run that
 * measures it ({@link dev.kvtier.lab.fidelity.FidelityMatrixJob}) and its files.
 */
package dev.kvtier.lab.fidelity;
