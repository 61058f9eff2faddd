package dev.kvtier.realio.record;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The contents of every write a recording saw, as 4 KiB pages on the heap, numbered in the order they were added (a
 * write's pages take consecutive numbers). Bounded: adding past {@code maxBytes} is refused, and the recording says
 * so. Pages live in blocks of {@link #PAGES_PER_BLOCK}, so the store grows without copying.
 */
public final class PageStore {
    /** The unit of a page: the alignment of every O_DIRECT write. */
    public static final int PAGE_BYTES = 4096;
    private static final int PAGES_PER_BLOCK = 256;

    private final long maxBytes;
    private final List<byte[]> blocks = new ArrayList<>();
    private int pages;

    /** A store of at most {@code maxBytes} of contents (rounded down to whole pages). */
    public PageStore(final long maxBytes) {
        if (maxBytes < PAGE_BYTES) {
            throw new IllegalArgumentException("a page store holds at least one page of " + PAGE_BYTES + " B, got "
                + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** Whether {@code lengthBytes} more fit. */
    public boolean fits(final long lengthBytes) {
        return (long) pages * PAGE_BYTES + lengthBytes <= maxBytes;
    }

    /**
     * Copies {@code lengthBytes} (whole pages) at {@code offset} of {@code from} into new pages; returns the first
     * page's number.
     */
    public int add(final MemorySegment from, final long offset, final long lengthBytes) {
        if (lengthBytes % PAGE_BYTES != 0 || lengthBytes <= 0) {
            throw new IllegalArgumentException("contents of whole pages only, got " + lengthBytes + " B");
        }
        if (!fits(lengthBytes)) {
            throw new IllegalStateException("the page store is full (" + maxBytes + " B)");
        }
        final int first = pages;
        for (long at = 0; at < lengthBytes; at += PAGE_BYTES) {
            final int page = pages++;
            if (page / PAGES_PER_BLOCK == blocks.size()) {
                blocks.add(new byte[PAGES_PER_BLOCK * PAGE_BYTES]);
            }
            MemorySegment.copy(from, ValueLayout.JAVA_BYTE, offset + at, blocks.get(page / PAGES_PER_BLOCK),
                (page % PAGES_PER_BLOCK) * PAGE_BYTES, PAGE_BYTES);
        }
        return first;
    }

    /** Copies page {@code page} to {@code offset} of {@code to}. */
    public void copyOut(final int page, final MemorySegment to, final long offset) {
        if (page < 0 || page >= pages) {
            throw new IndexOutOfBoundsException("page " + page + " of " + pages);
        }
        MemorySegment.copy(blocks.get(page / PAGES_PER_BLOCK), (page % PAGES_PER_BLOCK) * PAGE_BYTES, to,
            ValueLayout.JAVA_BYTE, offset, PAGE_BYTES);
    }

    /** Writes every page, in order, to {@code out} (a record kept on disk). */
    public void writeTo(final OutputStream out) throws IOException {
        for (int b = 0; b < blocks.size(); b++) {
            final int inBlock = Math.min(PAGES_PER_BLOCK, pages - b * PAGES_PER_BLOCK);
            out.write(blocks.get(b), 0, inBlock * PAGE_BYTES);
        }
    }

    /** Adds the pages {@code in} holds, to its end ({@link #writeTo}'s output); the store must have room for them. */
    public void readFrom(final InputStream in) throws IOException {
        final byte[] page = new byte[PAGE_BYTES];
        while (true) {
            final int n = in.readNBytes(page, 0, PAGE_BYTES);
            if (n == 0) {
                return;
            }
            if (n != PAGE_BYTES) {
                throw new IOException("a record's pages end in a part page of " + n + " B");
            }
            add(MemorySegment.ofArray(page), 0, PAGE_BYTES);
        }
    }

    /** Pages held. */
    public int pages() {
        return pages;
    }

    /** Bytes of contents held. */
    public long bytes() {
        return (long) pages * PAGE_BYTES;
    }

    /** The bound on the contents. */
    public long maxBytes() {
        return maxBytes;
    }
}
