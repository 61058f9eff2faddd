/** kvtier's cli module; see ARCHITECTURE.md for its role. */
package dev.kvtier.cli;
