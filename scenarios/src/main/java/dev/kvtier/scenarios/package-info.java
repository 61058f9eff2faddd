/** kvtier's scenarios module; see ARCHITECTURE.md for its role. */
package dev.kvtier.scenarios;
