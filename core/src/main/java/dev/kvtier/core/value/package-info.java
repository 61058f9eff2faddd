/**
 * The values the core's events carry: prefix keys, allocation references, span pieces, load ranges, store specs and
 * I/O operations. Small immutable records (and one enum) that check their own fields and know nothing else of the
 * core: this package depends on no other package of {@code dev.kvtier.core}, and {@code event} depends on nothing of
 * the core but this package, so every package of the core may use both without an arrow back up.
 */
package dev.kvtier.core.value;
