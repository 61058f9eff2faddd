/**
 * The core's knobs (CoreConfig) with the reference defaults.
 */
package dev.kvtier.core.config;
