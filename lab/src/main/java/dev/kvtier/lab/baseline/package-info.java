/**
 * The bundled scenarios' committed performance baselines ({@code results/baselines/*.json}): each scenario's
 * virtual-time figures at one seed, measured, compared with the committed ones within each figure's band, and
 * rewritten by {@code kvtier baseline --update}.
 */
package dev.kvtier.lab.baseline;
