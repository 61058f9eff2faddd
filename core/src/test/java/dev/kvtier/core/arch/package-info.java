/**
 * Rules over the code itself, checked by tests as tidy does (docs/design/STYLE.md rules 5 and 19): core's architecture
 * and determinism rules, and the method and file length ratchet over every module's sources.
 */
package dev.kvtier.core.arch;
