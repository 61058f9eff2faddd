package dev.kvtier.sim.device;

import dev.kvtier.core.port.Entropy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A simulated device's durability bookkeeping, shared by the provenance and the byte device (content type
 * {@code C}: a provenance snapshot or a byte array, holding one write's data from its first byte).
 *
 * <p>With the volatile cache <b>on</b>, a completed write is in the visible image (the device puts it there) and
 * stays volatile, in completion order, until a FLUSH covers it: a FLUSH covers every write that had completed when
 * it was submitted (Linux fsync semantics) and, when it completes, those writes become durable in their completion
 * order. With the cache <b>off</b>, the device's visible and durable images are one and every completed write is
 * durable at once; only in-flight writes are tracked.
 *
 * <p>A {@link #crash} is power loss: every write in flight or completed but unflushed (a write fated to fail is
 * never registered) is taken in submission order, and each of its 4 KiB pages is drawn WRITTEN, LOST or TORN with
 * probability 1/3 each; a torn page has each 512 B sector written or not, drawn as a mask with at least one sector
 * of each kind. Written sectors go to the durable image, then the visible image becomes the durable one. An
 * in-flight write's data is taken from memory at the crash.
 */
final class WriteCache<C> {
    static final int PAGE_BYTES = 4096;
    static final int SECTOR_BYTES = 512;
    /** Sectors in a page. */
    private static final int SECTORS = PAGE_BYTES / SECTOR_BYTES;
    /** The mask of a page's every sector. */
    private static final int ALL_SECTORS = (1 << SECTORS) - 1;
    /**
     * For each set of written sectors (a mask, bit s for sector s), its runs of set bits as (first sector, end
     * sector) pairs, in order: those of mask m are {@code SECTOR_RUNS[SECTOR_RUN_FIRST[m] .. SECTOR_RUN_FIRST[m +
     * 1])}. A crash walks a torn page's runs from here instead of testing its sectors one by one.
     */
    private static final byte[] SECTOR_RUNS;
    private static final int[] SECTOR_RUN_FIRST = new int[(1 << SECTORS) + 1];

    static {
        final byte[] runs = new byte[(1 << SECTORS) * SECTORS];
        int n = 0;
        for (int mask = 0; mask < 1 << SECTORS; mask++) {
            SECTOR_RUN_FIRST[mask] = n;
            for (int s = 0; s < SECTORS;) {
                if ((mask >>> s & 1) == 0) {
                    s++;
                    continue;
                }
                final int run = Integer.numberOfTrailingZeros(~(mask >>> s)); // set bits from s on
                runs[n++] = (byte) s;
                runs[n++] = (byte) (s + run);
                s += run;
            }
        }
        SECTOR_RUN_FIRST[1 << SECTORS] = n;
        SECTOR_RUNS = Arrays.copyOf(runs, n);
    }

    /** Pending writes (in flight plus unflushed) allowed at once: a core that never flushes hits this. */
    static final int MAX_PENDING_WRITES = 1 << 22;

    /** What the cache needs of a device's images. */
    interface Image<C> {
        /** Makes bytes {@code [from, from + lengthBytes)} of a write's content durable at {@code fileOffset + from}. */
        void persist(C content, long fileOffset, long from, long lengthBytes);

        /**
         * As {@link #persist} for each piece {@code (from, lengthBytes)} of {@code pieces} (pairs of longs, ascending
         * and disjoint), in order; a device may do it in one pass.
         */
        default void persistPieces(final C content, final long fileOffset, final long[] pieces, final int count) {
            for (int k = 0; k < count; k++) {
                persist(content, fileOffset, pieces[2 * k], pieces[2 * k + 1]);
            }
        }

        /** After a power loss: the visible image becomes the durable image (a no-op when they are one). */
        void revertToDurable();

        /**
         * Persists bytes {@code [from, from + lengthBytes)} of a write's content (as {@link #persist}) with one byte
         * inverted, drawn from {@code entropy} among those that differ from the durable image; false, and nothing
         * persisted, when none differs. Only a device that garbles pages at a crash implements it.
         */
        default boolean garble(final C content, final long fileOffset, final long from, final long lengthBytes,
                               final Entropy entropy) {
            throw new UnsupportedOperationException("this device does not garble pages at a crash");
        }
    }

    private static final class Pending<C> {
        final long seq;
        final long fileOffset;
        final long lengthBytes;
        final Supplier<C> contentNow;
        C content;
        long completion;

        Pending(final long seq, final long fileOffset, final long lengthBytes, final Supplier<C> contentNow) {
            this.seq = seq;
            this.fileOffset = fileOffset;
            this.lengthBytes = lengthBytes;
            this.contentNow = contentNow;
        }
    }

    private final boolean enabled;
    private final Image<C> image;
    private final LinkedHashMap<Long, Pending<C>> inFlight = new LinkedHashMap<>();
    private final ArrayDeque<Pending<C>> unflushed = new ArrayDeque<>();
    private long submitted;
    private long completed;
    /**
     * The pieces of the write a crash is drawing (pairs of longs), reused from write to write and crash to crash: a
     * torn write of thousands of pages gathers thousands of pieces. Holds nothing between two writes' draws.
     */
    private long[] pieces = new long[32];

    WriteCache(final boolean enabled, final Image<C> image) {
        this.enabled = enabled;
        this.image = Objects.requireNonNull(image, "image");
    }

    boolean enabled() {
        return enabled;
    }

    /**
     * Registers a write that will land at {@code fileOffset} (its actual place); {@code contentNow} gives its data
     * as memory holds it now, for a crash that catches it in flight. Returns its sequence number.
     */
    long submitWrite(final long fileOffset, final long lengthBytes, final Supplier<C> contentNow) {
        if (fileOffset % PAGE_BYTES != 0 || lengthBytes <= 0 || lengthBytes % PAGE_BYTES != 0) {
            throw new IllegalArgumentException("write [" + fileOffset + ", +" + lengthBytes + ") is not whole pages");
        }
        if (inFlight.size() + unflushed.size() >= MAX_PENDING_WRITES) {
            throw new IllegalStateException(MAX_PENDING_WRITES + " writes pending (in flight or unflushed): "
                + "nothing flushes the device's volatile write cache");
        }
        final long seq = submitted++;
        inFlight.put(seq, new Pending<>(seq, fileOffset, lengthBytes, contentNow));
        return seq;
    }

    /** Write {@code seq} completed and is in the visible image; {@code content} is its data (unused when off). */
    void completeWrite(final long seq, final C content) {
        final Pending<C> p = inFlight.remove(seq);
        if (p == null) {
            throw new IllegalStateException("write " + seq + " completed but is not in flight");
        }
        if (enabled) {
            p.content = Objects.requireNonNull(content, "content");
            p.completion = ++completed;
            unflushed.addLast(p);
        }
    }

    /** Taken when a FLUSH is submitted: it covers the writes completed so far. */
    long flushMark() {
        return completed;
    }

    /** A FLUSH submitted at {@code mark} completed: the writes it covers become durable, in completion order. */
    void completeFlush(final long mark) {
        if (mark > completed) {
            throw new IllegalArgumentException("flush mark " + mark + " is past " + completed + " completions");
        }
        while (!unflushed.isEmpty() && unflushed.peekFirst().completion <= mark) {
            final Pending<C> p = unflushed.pollFirst();
            image.persist(p.content, p.fileOffset, 0, p.lengthBytes);
        }
    }

    int inFlightWrites() {
        return inFlight.size();
    }

    int unflushedWrites() {
        return unflushed.size();
    }

    /** Power loss now: draws each pending write's pages from {@code entropy}, then forgets every pending write. */
    CrashOutcome crash(final Entropy entropy) {
        return crash(entropy, IndexCrashPages.DRAW);
    }

    /** Power loss now, treating each pending page as {@code fate} says (drawn from {@code entropy}). */
    CrashOutcome crash(final Entropy entropy, final IndexCrashPages fate) {
        final List<Pending<C>> pending = new ArrayList<>(inFlight.values());
        pending.addAll(unflushed);
        pending.sort(Comparator.comparingLong(p -> p.seq));
        final long[] pages = new long[4];
        for (final Pending<C> p : pending) {
            final C content = p.content != null ? p.content : p.contentNow.get();
            drawPages(p, content, entropy, fate, pages);
        }
        inFlight.clear();
        unflushed.clear();
        image.revertToDurable();
        return new CrashOutcome(pages[0], pages[1], pages[2], pending.size(), pages[3]);
    }

    /**
     * Draws every page of one write and persists its written sectors, adjacent ones merged into one piece each (a
     * lost page or an unwritten sector ends a piece), gathered in {@link #pieces} and persisted in one call at the
     * write's end and before a garble (which reads the durable image).
     */
    private void drawPages(final Pending<C> p, final C content, final Entropy entropy, final IndexCrashPages fate,
                           final long[] pages) {
        long from = -1; // the open piece [from, to), none when from < 0
        long to = -1;
        int count = 0;
        for (long page = 0; page < p.lengthBytes; page += PAGE_BYTES) {
            final int draw = fate == IndexCrashPages.DRAW ? entropy.nextInt(3) : 2;
            pages[draw]++;
            // The sectors that reach the media: all of a written page, none of a lost one, a drawn mask of a torn one.
            int written = draw == 0 ? ALL_SECTORS : 0;
            if (draw == 2) {
                final int mask = 1 + entropy.nextInt((1 << SECTORS) - 2);
                written = mask;
                if (fate == IndexCrashPages.GARBLED) {
                    // Garbling reads the durable image: what this write persisted so far must be in it.
                    persistPieces(p, content, endPiece(from, to, count));
                    count = 0;
                    from = -1;
                    to = -1;
                    final int garbled = garbleOne(p, content, page, mask, entropy);
                    pages[3] += garbled >= 0 ? 1 : 0;
                    written &= garbled >= 0 ? ~(1 << garbled) : -1;
                }
            }
            // The written sectors' runs, from the table: one that does not start where the open piece ends ends it
            // and opens another; one that ends before the page does leaves a piece nothing can extend (the next
            // run starts past an unwritten sector or a lost page), as a sector at a time would. A page with no
            // written sector has no run and leaves the open piece so too.
            for (int k = SECTOR_RUN_FIRST[written]; k < SECTOR_RUN_FIRST[written + 1]; k += 2) {
                final long at = page + SECTOR_RUNS[k] * (long) SECTOR_BYTES;
                if (at != to) {
                    count = endPiece(from, to, count);
                    from = at;
                }
                to = page + SECTOR_RUNS[k + 1] * (long) SECTOR_BYTES;
            }
        }
        persistPieces(p, content, endPiece(from, to, count));
    }

    /** Appends piece {@code [from, to)} (if one is open and not empty) to {@link #pieces}; returns the new count. */
    private int endPiece(final long from, final long to, final int count) {
        if (from < 0 || to <= from) {
            return count;
        }
        if (2 * count + 2 > pieces.length) {
            pieces = Arrays.copyOf(pieces, pieces.length * 2);
        }
        pieces[2 * count] = from;
        pieces[2 * count + 1] = to - from;
        return count + 1;
    }

    /** Persists the first {@code count} of {@link #pieces} (nothing when there are none). */
    private void persistPieces(final Pending<C> p, final C content, final int count) {
        if (count > 0) {
            image.persistPieces(content, p.fileOffset, pieces, count);
        }
    }

    /**
     * Lands one written sector of a torn page garbled (the first, from a drawn start, whose new bytes differ from the
     * durable ones: one of those bytes inverted); returns its index, or -1 when no written sector changes anything.
     */
    private int garbleOne(final Pending<C> p, final C content, final long page, final int mask,
                          final Entropy entropy) {
        final int start = entropy.nextInt(SECTORS);
        for (int i = 0; i < SECTORS; i++) {
            final int s = (start + i) % SECTORS;
            if ((mask & (1 << s)) != 0
                && image.garble(content, p.fileOffset, page + (long) s * SECTOR_BYTES, SECTOR_BYTES, entropy)) {
                return s;
            }
        }
        return -1;
    }
}
