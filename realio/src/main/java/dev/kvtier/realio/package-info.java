/** kvtier's realio module; see ARCHITECTURE.md for its role. */
package dev.kvtier.realio;
