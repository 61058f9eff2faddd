package dev.kvtier.property.chain;

import dev.kvtier.core.port.IoRequest;

/**
 * What a {@link ControlledDevice} stores, kept apart from its fault and cache state (STYLE 16): a visible image
 * (what reads see) and a durable image (what survives a power loss), and how a write's content is taken from memory.
 * {@code C} is one write's content from its first byte: a provenance map for the data device, bytes for the index
 * device.
 *
 * @param <C> one write's content
 */
interface Medium<C> {
    /** The content of a write's segments as memory holds it now. */
    C capture(IoRequest write);

    /** Puts bytes {@code [from, from + lengthBytes)} of {@code content} at {@code fileOffset + from} of an image. */
    void put(C content, long fileOffset, long from, long lengthBytes, boolean durable);

    /** Moves {@code [fileOffset, +length)} of the visible image into the read's segments. */
    void read(IoRequest read);

    /** After a power loss: the visible image becomes the durable one. */
    void revertToDurable();

    /** Replaces one 4 KiB page of both images with content no write ever had (silent corruption on the medium). */
    void corrupt(long pageOffset, long salt);

    /** Offsets of the 4 KiB pages of the visible image that hold written content, in order. */
    long[] storedPages();
}
