package dev.kvtier.core.testkit;

import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.value.IoOp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A test double of the device port over a heap byte array. Submitted I/Os wait until the test completes them, in
 * any order it likes; the data moves at completion. Completions go to the target set with {@link #connect}.
 *
 * <p>It also models a volatile write cache, for crash tests: a completed WRITE is visible to reads at once but is
 * durable only once a FLUSH <i>submitted after it completed</i> completes. {@link #crashed} builds the device a
 * restarted process would find: the durable image plus, as a {@link CrashPolicy} decides block by block, the
 * completed-but-unflushed writes and the writes still in flight (in flight they may have reached the media or not,
 * or in part: a torn write). Corruption ({@link #poke}, {@link #flip}) is on the media: both images see it.
 */
public final class ManualDevice implements Device {
    /** Bytes of one block: the unit a crash keeps or drops. */
    public static final int BLOCK = 4096;

    private final byte[] disk;
    private final byte[] durable;
    private final LinkedHashMap<Long, IoRequest> submitted = new LinkedHashMap<>();
    private final List<IoRequest> history = new ArrayList<>();
    private final List<CachedWrite> unflushed = new ArrayList<>();
    private final Map<Long, Long> flushCovers = new LinkedHashMap<>();
    private long writesCompleted;
    private Consumer<IoCompletion> target;

    /** A write that is not yet durable: completed and waiting for a flush, or still in flight at the crash. */
    public record WriteAtCrash(long offset, int blocks, boolean completed) {}

    /** Decides which blocks of a write that was not durable at the crash reach the media. */
    @FunctionalInterface
    public interface CrashPolicy {
        /** Every completed write persists (the cache was written back); in-flight writes are lost. */
        CrashPolicy KEEP_COMPLETED = (w, block) -> w.completed();
        /** Only what a completed FLUSH made durable survives. */
        CrashPolicy LOSE_UNFLUSHED = (w, block) -> false;

        boolean keep(WriteAtCrash write, int block);
    }

    @SuppressWarnings("ArrayRecordComponent") // a write held in the cache, never compared or hashed
    private record CachedWrite(long seq, long offset, byte[] bytes) {}

    public ManualDevice(final long capacityBytes) {
        this.disk = new byte[Math.toIntExact(capacityBytes)];
        this.durable = new byte[disk.length];
    }

    private ManualDevice(final byte[] image) {
        this.disk = image;
        this.durable = image.clone();
    }

    public void connect(final Consumer<IoCompletion> completionTarget) {
        this.target = completionTarget;
    }

    @Override
    public long capacityBytes() {
        return disk.length;
    }

    @Override
    public void submit(final IoRequest request) {
        if (submitted.put(request.ioId(), request) != null) {
            throw new IllegalStateException("I/O id reused: " + request.ioId());
        }
        history.add(request);
        if (request.op() == IoOp.FLUSH) {
            flushCovers.put(request.ioId(), writesCompleted);
        }
    }

    /** I/Os submitted and not completed, oldest first. */
    public List<IoRequest> inFlight() {
        return new ArrayList<>(submitted.values());
    }

    /** Every I/O ever submitted, in order. */
    public List<IoRequest> history() {
        return List.copyOf(history);
    }

    public int inFlightCount() {
        return submitted.size();
    }

    /** Completes one I/O successfully (moving its data). */
    public void complete(final long ioId) {
        final IoRequest r = take(ioId);
        transfer(r);
        target.accept(new IoCompletion(ioId, r.op() == IoOp.FLUSH ? 0 : r.lengthBytes()));
    }

    /** Fails one I/O with EIO (no data moves; a failed FLUSH makes nothing durable). */
    public void fail(final long ioId) {
        take(ioId);
        flushCovers.remove(ioId);
        target.accept(new IoCompletion(ioId, -IoCompletion.EIO));
    }

    /** Completes one I/O with an arbitrary result (for example a short count); no data moves. */
    public void completeWith(final long ioId, final long result) {
        take(ioId);
        flushCovers.remove(ioId);
        target.accept(new IoCompletion(ioId, result));
    }

    /** Completes the oldest in-flight I/O; false when none is in flight. */
    public boolean completeOldest() {
        if (submitted.isEmpty()) {
            return false;
        }
        complete(submitted.firstEntry().getKey());
        return true;
    }

    /** Completes I/Os oldest first until none is in flight (including ones submitted meanwhile). */
    public int completeAll() {
        int n = 0;
        while (completeOldest()) {
            n++;
        }
        return n;
    }

    /** The oldest in-flight I/O of {@code op}, or null. */
    public IoRequest oldest(final IoOp op) {
        for (final Map.Entry<Long, IoRequest> e : submitted.entrySet()) {
            if (e.getValue().op() == op) {
                return e.getValue();
            }
        }
        return null;
    }

    /** The oldest in-flight I/O of {@code op} at {@code fileOffset}, or null. */
    public IoRequest oldest(final IoOp op, final long fileOffset) {
        for (final IoRequest r : submitted.values()) {
            if (r.op() == op && r.fileOffset() == fileOffset) {
                return r;
            }
        }
        return null;
    }

    /** The byte on disk at {@code offset}. */
    public int at(final long offset) {
        return disk[Math.toIntExact(offset)];
    }

    /** A copy of {@code lengthBytes} on disk (as reads see them) at {@code offset}. */
    public byte[] read(final long offset, final int lengthBytes) {
        final byte[] out = new byte[lengthBytes];
        System.arraycopy(disk, Math.toIntExact(offset), out, 0, lengthBytes);
        return out;
    }

    /**
     * Media corruption: sets the byte at {@code offset} in the visible and the durable image and in every completed
     * write still waiting for a flush (so no crash image brings the old byte back).
     */
    public void poke(final long offset, final int value) {
        disk[Math.toIntExact(offset)] = (byte) value;
        durable[Math.toIntExact(offset)] = (byte) value;
        for (final CachedWrite w : unflushed) {
            if (offset >= w.offset() && offset < w.offset() + w.bytes().length) {
                w.bytes()[Math.toIntExact(offset - w.offset())] = (byte) value;
            }
        }
    }

    /** Media corruption: inverts every bit of the byte at {@code offset}. */
    public void flip(final long offset) {
        poke(offset, ~disk[Math.toIntExact(offset)]);
    }

    /** Completed writes not yet made durable by a flush. */
    public int unflushedWrites() {
        return unflushed.size();
    }

    /**
     * The device a restarted process finds after a crash now: a new device (nothing in flight, empty history, not
     * connected) over the durable image, with the blocks of not-yet-durable writes that {@code policy} keeps applied
     * in the order the writes completed (then the in-flight ones, oldest first).
     */
    public ManualDevice crashed(final CrashPolicy policy) {
        final byte[] image = durable.clone();
        for (final CachedWrite w : unflushed) {
            apply(image, w.offset(), w.bytes(), true, policy);
        }
        for (final IoRequest r : submitted.values()) {
            if (r.op() == IoOp.WRITE) {
                apply(image, r.fileOffset(), gather(r), false, policy);
            }
        }
        return new ManualDevice(image);
    }

    private static void apply(final byte[] image, final long offset, final byte[] bytes, final boolean completed,
                              final CrashPolicy policy) {
        final int blocks = (bytes.length + BLOCK - 1) / BLOCK;
        final WriteAtCrash w = new WriteAtCrash(offset, blocks, completed);
        for (int b = 0; b < blocks; b++) {
            if (policy.keep(w, b)) {
                final int from = b * BLOCK;
                System.arraycopy(bytes, from, image, Math.toIntExact(offset) + from,
                    Math.min(BLOCK, bytes.length - from));
            }
        }
    }

    private static byte[] gather(final IoRequest r) {
        final byte[] out = new byte[Math.toIntExact(r.lengthBytes())];
        int at = 0;
        for (final IoSegment s : r.segments()) {
            final int len = Math.toIntExact(s.lengthBytes());
            System.arraycopy(((HeapMemory.Region) s.region()).bytes, Math.toIntExact(s.regionOffset()), out, at, len);
            at += len;
        }
        return out;
    }

    private IoRequest take(final long ioId) {
        final IoRequest r = submitted.remove(ioId);
        if (r == null) {
            throw new IllegalStateException("no I/O " + ioId + " in flight");
        }
        return r;
    }

    private void transfer(final IoRequest r) {
        if (r.op() == IoOp.WRITE) {
            unflushed.add(new CachedWrite(++writesCompleted, r.fileOffset(), gather(r)));
        } else if (r.op() == IoOp.FLUSH) {
            final long covered = flushCovers.remove(r.ioId());
            while (!unflushed.isEmpty() && unflushed.getFirst().seq() <= covered) {
                final CachedWrite w = unflushed.removeFirst();
                System.arraycopy(w.bytes(), 0, durable, Math.toIntExact(w.offset()), w.bytes().length);
            }
        }
        long file = r.fileOffset();
        for (final IoSegment s : r.segments()) {
            final byte[] mem = ((HeapMemory.Region) s.region()).bytes;
            final int len = Math.toIntExact(s.lengthBytes());
            if (r.op() == IoOp.WRITE) {
                System.arraycopy(mem, Math.toIntExact(s.regionOffset()), disk, Math.toIntExact(file), len);
            } else if (r.op() == IoOp.READ) {
                System.arraycopy(disk, Math.toIntExact(file), mem, Math.toIntExact(s.regionOffset()), len);
            }
            file += len;
        }
    }
}
