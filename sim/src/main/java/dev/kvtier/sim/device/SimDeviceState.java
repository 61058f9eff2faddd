package dev.kvtier.sim.device;

import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.Entropy;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.Scheduler;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.profile.DeviceProfile;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the two simulated devices ({@link SimDevice}, {@link SimMetaDevice}) share, in one place: the range check of
 * a submission, its service time ({@link IoTimeline} on the submit clock), its completion scheduled on the loop and
 * dropped if a crash came first (a generation number), the volatile write cache ({@link WriteCache}) with FLUSH
 * completion, power loss, and the counters of completed I/O. Each device keeps what differs: its content type
 * {@code C} and images, and which faults it draws. Every completion is of an I/O in flight (the count of them never
 * goes negative), a read's of a READ and a write's of a WRITE, and none comes before its submission.
 *
 * <p>Seeded reordering ({@link #reorder}, off by default): each completion is delivered after an extra delay drawn
 * uniformly from {@code [0, 2 x its service time]}, so independent I/Os complete out of submission order as on a
 * real NVMe queue through io_uring without IOSQE_IO_DRAIN or IOSQE_IO_LINK. Data still moves at delivery: a read
 * delivered before an earlier write over the same bytes reads the old bytes. A FLUSH is delayed the same way and
 * still covers only the writes completed when it was submitted (the cache's rule), so it promises nothing about
 * writes in flight. A completion delivered while an I/O submitted before it is still in flight is counted
 * ({@link #overtakes}).
 *
 * @param <C> one write's content (a provenance snapshot or a byte array)
 */
final class SimDeviceState<C> {
    private final String ioName;
    private final long capacityBytes;
    private final Scheduler loop;
    private final Clock submitClock;
    private final Consumer<IoCompletion> target;
    private final IoTimeline timeline;
    private final WriteCache<C> cache;
    private long generation;
    /** Draws each completion's extra delay; null when reordering is off. */
    private Entropy reorder;
    /** When the I/O being submitted was accepted (its service time starts there). */
    private long acceptedNs;
    /** Submission numbers of the I/Os in flight (only with reordering on). */
    private final TreeSet<Long> inFlightSeqs = new TreeSet<>();
    private long submissions;
    private long overtakes;
    /** I/Os submitted whose completion is still scheduled (a crash forgets them). */
    private int inFlight;
    private long crashes;
    private long reads;
    private long writes;
    private long flushes;
    private long bytesRead;
    private long bytesWritten;

    /**
     * @param ioName      how an I/O of this device is named in a message ("I/O", "metadata I/O")
     * @param submitClock the time at which submissions happen (the simulated server thread's clock)
     * @param target      receives each completion
     * @param writeCache  whether completed writes stay volatile until a FLUSH ({@link FaultPlan#writeCacheEnabled})
     * @param diskCache   the timing of the disk's write-back cache, shared by the devices on one disk
     * @param image       the device's visible and durable images, as the cache sees them
     */
    SimDeviceState(final String ioName, final DeviceProfile profile, final long capacityBytes, final Scheduler loop,
                   final Clock submitClock, final Consumer<IoCompletion> target, final boolean writeCache,
                   final DiskCache diskCache, final WriteCache.Image<C> image) {
        this.ioName = ioName;
        this.capacityBytes = capacityBytes;
        this.loop = Objects.requireNonNull(loop, "loop");
        this.submitClock = Objects.requireNonNull(submitClock, "submitClock");
        this.target = Objects.requireNonNull(target, "target");
        this.timeline = new IoTimeline(profile, Objects.requireNonNull(diskCache, "diskCache"));
        this.cache = new WriteCache<>(writeCache, image);
    }

    /** Checks that {@code request} lies inside the device; returns its submission time (the submit clock's now). */
    long accept(final IoRequest request) {
        final long length = request.lengthBytes();
        if (request.fileOffset() + length > capacityBytes) {
            throw new IllegalArgumentException(ioName + " [" + request.fileOffset() + ", +" + length
                + ") past the end of " + capacityBytes + " B");
        }
        acceptedNs = submitClock.nowNs();
        return acceptedNs;
    }

    /** Turns seeded reordering on, drawing every completion's extra delay from {@code stream}. */
    void reorder(final Entropy stream) {
        this.reorder = Objects.requireNonNull(stream, "stream");
    }

    /** Completions delivered while an I/O submitted before them was still in flight (0 without reordering). */
    long overtakes() {
        return overtakes;
    }

    /** Books the I/O on the channels and the data path ({@link IoTimeline#book}); returns its completion time. */
    long book(final long nowNs, final IoOp op, final long lengthBytes, final int slowdown, final long spikeNs) {
        final long done = timeline.book(nowNs, op, lengthBytes, slowdown, spikeNs);
        assert done >= nowNs : ioName + " submitted at " + nowNs + " ns completes earlier, at " + done + " ns";
        return done;
    }

    /** Runs {@code completion} on the loop at {@code doneNs}, unless a crash happened in between. */
    void at(final long doneNs, final Runnable completion) {
        final long gen = generation;
        inFlight++;
        if (reorder == null) {
            loop.at(doneNs, () -> {
                if (gen == generation) {
                    completion.run();
                }
            });
            return;
        }
        final long service = Math.max(1, doneNs - acceptedNs);
        final long extra = Math.floorMod(reorder.nextLong(), 2 * service + 1);
        final long seq = submissions++;
        inFlightSeqs.add(seq);
        loop.at(doneNs + extra, () -> {
            if (gen == generation) {
                inFlightSeqs.remove(seq);
                if (!inFlightSeqs.isEmpty() && inFlightSeqs.first() < seq) {
                    overtakes++;
                }
                completion.run();
            }
        });
    }

    /** Completes {@code ioId} at {@code doneNs} with {@code -errno}; nothing moves and nothing is counted. */
    void failAt(final long doneNs, final long ioId, final long errno) {
        if (errno <= 0) {
            throw new IllegalArgumentException("errno must be positive, got " + errno);
        }
        at(doneNs, () -> deliver(new IoCompletion(ioId, -errno)));
    }

    /** Completes a FLUSH at {@code doneNs}: it makes durable the writes completed before it was submitted (now). */
    void flushAt(final long doneNs, final IoRequest request) {
        final long mark = cache.flushMark();
        at(doneNs, () -> {
            cache.completeFlush(mark);
            flushes++;
            deliver(new IoCompletion(request.ioId(), 0));
        });
    }

    /** Registers a write with the cache ({@link WriteCache#submitWrite}); returns its sequence number. */
    long submitWrite(final long fileOffset, final long lengthBytes, final Supplier<C> contentNow) {
        return cache.submitWrite(fileOffset, lengthBytes, contentNow);
    }

    /** Whether the volatile write cache is on. */
    boolean cacheEnabled() {
        return cache.enabled();
    }

    /** A write landed in the visible image: the cache takes {@code content} (null with the cache off), then done. */
    void completeWrite(final IoRequest request, final long seq, final C content) {
        completeWrite(request, seq, content, request.lengthBytes());
    }

    /** As above, for a write of which only the leading {@code written} bytes landed: its completion says so. */
    void completeWrite(final IoRequest request, final long seq, final C content, final long written) {
        requireOp(request, IoOp.WRITE);
        if (written < 0 || written > request.lengthBytes()) {
            throw new IllegalArgumentException("a write of " + request.lengthBytes() + " B cannot complete with "
                + written);
        }
        cache.completeWrite(seq, content);
        writes++;
        bytesWritten += written;
        deliver(new IoCompletion(request.ioId(), written));
    }

    /** A read landed in memory: done. */
    void completeRead(final IoRequest request) {
        requireOp(request, IoOp.READ);
        reads++;
        bytesRead += request.lengthBytes();
        deliver(new IoCompletion(request.ioId(), request.lengthBytes()));
    }

    private void requireOp(final IoRequest request, final IoOp op) {
        if (request.op() != op) {
            throw new IllegalStateException(
                ioName + " " + request.ioId() + " is a " + request.op() + ", completed as a "
                    + op);
        }
    }

    /** Hands a completion to the target: one I/O fewer in flight, and there must have been one. */
    private void deliver(final IoCompletion completion) {
        if (inFlight <= 0) {
            throw new IllegalStateException("completion of " + ioName + " " + completion.ioId() + " with no "
                + ioName + " in flight");
        }
        inFlight--;
        target.accept(completion);
    }

    /** I/Os submitted and not yet completed (none after a crash). */
    int inFlight() {
        return inFlight;
    }

    /**
     * Power loss now ({@link WriteCache#crash}, drawing from {@code entropy}): every I/O in flight is forgotten (its
     * completion, still scheduled, is dropped) and the channels and the data path restart idle.
     */
    CrashOutcome crash(final Entropy entropy) {
        return crash(entropy, IndexCrashPages.DRAW);
    }

    /** As {@link #crash(Entropy)}, each pending page treated as {@code fate} says. */
    CrashOutcome crash(final Entropy entropy, final IndexCrashPages fate) {
        generation++;
        crashes++;
        inFlight = 0; // their completions, still scheduled, are dropped
        inFlightSeqs.clear();
        timeline.reset();
        return cache.crash(entropy, fate);
    }

    long capacityBytes() {
        return capacityBytes;
    }

    int unflushedWrites() {
        return cache.unflushedWrites();
    }

    long crashes() {
        return crashes;
    }

    long reads() {
        return reads;
    }

    long writes() {
        return writes;
    }

    long flushes() {
        return flushes;
    }

    long bytesRead() {
        return bytesRead;
    }

    long bytesWritten() {
        return bytesWritten;
    }
}
