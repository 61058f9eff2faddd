package dev.kvtier.property.chain;

import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.Entropy;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.sim.device.CrashOutcome;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A device whose completions the action chain chooses, with a volatile write cache and power loss. Submissions are
 * held, in submission order, until an action completes (or fails) one of them by index, so a chain can complete I/Os
 * in any order a real NVMe queue may. Data moves at completion, on the {@link Medium}'s visible image: a slice reused
 * before its write completed, or a read served before the write it waited for, shows up as wrong bytes later.
 *
 * <p>The cache follows {@code sim}'s {@code WriteCache} (Linux fsync semantics): a completed write is visible at once
 * but durable only once a FLUSH <i>submitted after it completed</i> completes; then the writes it covers reach the
 * durable image in completion order. A failed FLUSH makes nothing durable; a failed write moves nothing.
 *
 * <p>{@link #destageOldest} writes the oldest cached write back on its own, as a drive destages its cache.
 *
 * <p>{@link #crash} is power loss: every I/O in flight is dropped (no completion will come); every write in flight
 * or completed but unflushed is taken in submission order, and each of its 4 KiB pages is drawn WRITTEN, LOST or TORN
 * with probability 1/3 each; a torn page has each 512 B sector written or not (a mask with at least one of each). An
 * in-flight write's content is taken from memory at the crash. Written sectors reach the durable image, and the
 * visible image becomes the durable one. Draws come from the entropy the chain's crash step passes, so a chain is
 * one run, and shrinking the step's seed changes only the draws; a directed test may choose every page's fate
 * ({@link PageFate}).
 *
 * @param <C> one write's content ({@link Medium})
 */
final class ControlledDevice<C> implements Device {
    static final int PAGE_BYTES = 4096;
    static final int SECTOR_BYTES = 512;
    /** Writes pending (in flight or unflushed) at most: a core that never flushes would hit this. */
    static final int MAX_PENDING_WRITES = 1 << 16;

    /** An I/O in flight: its request, its submission number and, for a FLUSH, the completions it covers. */
    private record InFlight(IoRequest request, long seq, long flushMark) {}

    /** A completed write not yet covered by a completed FLUSH. */
    private record Unflushed<T>(long seq, long fileOffset, long lengthBytes, T content, long completion) {}

    private final String name;
    private final long capacityBytes;
    private final Medium<C> medium;
    private final List<InFlight> inFlight = new ArrayList<>();
    private final ArrayDeque<Unflushed<C>> unflushed = new ArrayDeque<>();
    private Consumer<IoCompletion> target;
    private long submitted;
    private long writesCompleted;
    private boolean flushLies;

    ControlledDevice(final String name, final long capacityBytes, final Medium<C> medium) {
        if (capacityBytes <= 0 || capacityBytes % PAGE_BYTES != 0) {
            throw new IllegalArgumentException(name + " capacity must be a positive multiple of 4096, got "
                + capacityBytes);
        }
        this.name = name;
        this.capacityBytes = capacityBytes;
        this.medium = Objects.requireNonNull(medium, "medium");
    }

    /** Where completions go (the current server); wired once by the harness. */
    void connect(final Consumer<IoCompletion> completionTarget) {
        this.target = completionTarget;
    }

    @Override
    public long capacityBytes() {
        return capacityBytes;
    }

    @Override
    public void submit(final IoRequest request) {
        if (request.fileOffset() + request.lengthBytes() > capacityBytes) {
            throw new IllegalArgumentException(name + ": I/O [" + request.fileOffset() + ", +" + request.lengthBytes()
                + ") past the end of " + capacityBytes + " B");
        }
        if (request.op() == IoOp.WRITE && inFlightWrites() + unflushed.size() >= MAX_PENDING_WRITES) {
            throw new IllegalStateException(name + ": " + MAX_PENDING_WRITES + " writes pending: nothing flushes");
        }
        inFlight.add(new InFlight(request, submitted++, request.op() == IoOp.FLUSH ? writesCompleted : -1));
    }

    int inFlightCount() {
        return inFlight.size();
    }

    IoRequest inFlight(final int index) {
        return inFlight.get(index).request();
    }

    /** Completes the I/O at {@code index} (submission order) successfully, moving its data. */
    void complete(final int index) {
        final InFlight f = inFlight.remove(index);
        final IoRequest r = f.request();
        switch (r.op()) {
            case WRITE -> {
                final C content = medium.capture(r);
                medium.put(content, r.fileOffset(), 0, r.lengthBytes(), false);
                unflushed.addLast(new Unflushed<>(f.seq(), r.fileOffset(), r.lengthBytes(), content,
                    ++writesCompleted));
            }
            case READ -> medium.read(r);
            case FLUSH -> {
                if (!flushLies) {
                    persistUpTo(f.flushMark());
                }
            }
        }
        target.accept(new IoCompletion(r.ioId(), r.op() == IoOp.FLUSH ? 0 : r.lengthBytes()));
    }

    /** Fails the I/O at {@code index} with {@code -errno}; no data moves and a failed FLUSH makes nothing durable. */
    void fail(final int index, final long errno) {
        final InFlight f = inFlight.remove(index);
        target.accept(new IoCompletion(f.request().ioId(), -errno));
    }

    /** A readable name for the I/O at {@code index}: {@code data io#7 WRITE [8192,+4096)}. */
    String describe(final int index) {
        final IoRequest r = inFlight.get(index).request();
        return name + " io#" + r.ioId() + " " + r.op() + (r.op() == IoOp.FLUSH ? ""
            : " [" + r.fileOffset() + ",+" + r.lengthBytes() + ")");
    }

    /** Which 512 B sectors of one 4 KiB page of a pending write reach the medium at a crash. */
    @FunctionalInterface
    interface PageFate {
        /** All eight sectors. */
        int WRITTEN = 0xFF;
        /** None. */
        int LOST = 0;

        /**
         * A mask of the sectors written (bit {@code s} for sector {@code s}) of the page at {@code pageOffset} (a
         * device offset) of a write submitted {@code seq}-th.
         */
        int sectors(long seq, long pageOffset);

        /** The model's draw: each page written, lost or torn with probability 1/3, a torn page's mask uniform. */
        static PageFate drawnFrom(final Entropy entropy) {
            return (seq, pageOffset) -> switch (entropy.nextInt(3)) {
                case 0 -> WRITTEN;
                case 1 -> LOST;
                default -> 1 + entropy.nextInt((1 << (PAGE_BYTES / SECTOR_BYTES)) - 2);
            };
        }
    }

    /** Power loss now (see the class comment); the device then serves a new core over the same medium. */
    CrashOutcome crash(final Entropy entropy) {
        return crash(PageFate.drawnFrom(entropy));
    }

    /** Power loss now, each pending write's pages meeting {@code fate} (in submission order, page by page). */
    CrashOutcome crash(final PageFate fate) {
        final List<Unflushed<C>> pending = new ArrayList<>(unflushed);
        for (final InFlight f : inFlight) {
            if (f.request().op() == IoOp.WRITE) {
                pending.add(new Unflushed<>(f.seq(), f.request().fileOffset(), f.request().lengthBytes(),
                    medium.capture(f.request()), -1));
            }
        }
        pending.sort(Comparator.comparingLong(Unflushed<C>::seq));
        final long[] pages = new long[3];
        for (final Unflushed<C> w : pending) {
            drawPages(w, fate, pages);
        }
        inFlight.clear();
        unflushed.clear();
        medium.revertToDurable();
        return new CrashOutcome(pages[0], pages[1], pages[2], pending.size());
    }

    /**
     * Writes back the oldest completed, unflushed write to the durable image, as a drive destages its cache on its
     * own (oldest first, so a newer write to the same range is never undone by an older one); false when none is.
     */
    boolean destageOldest() {
        final Unflushed<C> w = unflushed.pollFirst();
        if (w == null) {
            return false;
        }
        medium.put(w.content(), w.fileOffset(), 0, w.lengthBytes(), true);
        return true;
    }

    /**
     * A broken device for canary tests: from now on a FLUSH completes successfully and makes nothing durable, so a
     * crash may lose what the core was told is durable.
     */
    void lieAboutFlush() {
        flushLies = true;
    }

    Medium<C> medium() {
        return medium;
    }

    private int inFlightWrites() {
        int n = 0;
        for (final InFlight f : inFlight) {
            n += f.request().op() == IoOp.WRITE ? 1 : 0;
        }
        return n;
    }

    /** A FLUSH that covered the first {@code mark} completed writes completed: they become durable, in order. */
    private void persistUpTo(final long mark) {
        while (!unflushed.isEmpty() && unflushed.peekFirst().completion() <= mark) {
            final Unflushed<C> w = unflushed.pollFirst();
            medium.put(w.content(), w.fileOffset(), 0, w.lengthBytes(), true);
        }
    }

    /** Meets every page of one write with its fate and puts its written sectors into the durable image. */
    private void drawPages(final Unflushed<C> w, final PageFate fate, final long[] pages) {
        for (long page = 0; page < w.lengthBytes(); page += PAGE_BYTES) {
            final int mask = fate.sectors(w.seq(), w.fileOffset() + page);
            if (mask == PageFate.WRITTEN) {
                pages[0]++;
                medium.put(w.content(), w.fileOffset(), page, PAGE_BYTES, true);
                continue;
            }
            pages[mask == PageFate.LOST ? 1 : 2]++;
            for (int s = 0; s < PAGE_BYTES / SECTOR_BYTES; s++) {
                if ((mask & (1 << s)) != 0) {
                    medium.put(w.content(), w.fileOffset(), page + (long) s * SECTOR_BYTES, SECTOR_BYTES, true);
                }
            }
        }
    }
}
