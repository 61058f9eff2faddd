/** kvtier's journal module; see ARCHITECTURE.md for its role. */
package dev.kvtier.journal;
