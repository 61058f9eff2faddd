/**
 * Sweeps ({@code kvtier sweep}): a candidate scenario against its gate's baseline, in virtual time, at each point of
 * one or more scenario keys varied together, with the metric's ratio at each point; the result as a table, JSON and a
 * plot.
 */
package dev.kvtier.lab.sweep;
