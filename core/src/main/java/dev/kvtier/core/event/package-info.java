/**
 * The closed vocabulary of inputs and decisions the core emits (journal, checkers and replay consume it).
 */
package dev.kvtier.core.event;
