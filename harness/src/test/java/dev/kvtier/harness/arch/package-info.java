/** Architecture and determinism rules for {@code harness} (docs/design/STYLE.md rule 5), checked with ArchUnit. */
package dev.kvtier.harness.arch;
