/**
 * The property-based invariant suite (issue 4): component properties against small reference models
 * ({@code component}), stateful action chains over the whole core in virtual time ({@code chain}), and the budget
 * and failure-report support they share ({@code support}).
 */
package dev.kvtier.property;
