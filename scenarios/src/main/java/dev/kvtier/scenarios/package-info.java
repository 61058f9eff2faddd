/**
 * Scenario files (TOML): the loader with its validation, --set overrides, profile files, and the bundled library.
 */
package dev.kvtier.scenarios;
