/** kvtier's sim module; see ARCHITECTURE.md for its role. */
package dev.kvtier.sim;
