/**
 * kvtier's journal module: every {@link dev.kvtier.core.event.CoreEvent} of a run, encoded canonically
 * ({@code codec}), stored in Chronicle Queue files with a header ({@code file}), printed ({@code dump}) and exported
 * as a Perfetto-readable trace ({@code trace}). See docs/design/ARCHITECTURE.md, "Journal and replay".
 */
package dev.kvtier.journal;
