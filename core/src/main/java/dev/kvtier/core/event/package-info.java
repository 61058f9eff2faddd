/**
 * The closed vocabulary of inputs, decisions and driver notes the core and its drivers emit (journal, checkers and
 * replay consume it); each record's kind is its type ({@code CoreEvent.Input}, {@code Decision} or {@code Note}).
 */
package dev.kvtier.core.event;
