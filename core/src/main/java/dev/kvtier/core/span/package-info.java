/**
 * Spans at the server boundary: pieces as sent (the value {@code value.SpanPiece}) coalesced into spans as stored.
 */
package dev.kvtier.core.span;
