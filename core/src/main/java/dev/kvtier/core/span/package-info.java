/**
 * Spans at the server boundary: pieces as sent and coalesced spans as stored.
 */
package dev.kvtier.core.span;
