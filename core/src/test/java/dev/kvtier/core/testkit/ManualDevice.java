package dev.kvtier.core.testkit;

import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoOp;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A test double of the device port over a heap byte array. Submitted I/Os wait until the test completes them, in
 * any order it likes; the data moves at completion. Completions go to the target set with {@link #connect}.
 */
public final class ManualDevice implements Device {
    private final byte[] disk;
    private final LinkedHashMap<Long, IoRequest> submitted = new LinkedHashMap<>();
    private final List<IoRequest> history = new ArrayList<>();
    private Consumer<IoCompletion> target;

    public ManualDevice(final long capacityBytes) {
        this.disk = new byte[Math.toIntExact(capacityBytes)];
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

    /** Fails one I/O with EIO (no data moves). */
    public void fail(final long ioId) {
        take(ioId);
        target.accept(new IoCompletion(ioId, -IoCompletion.EIO));
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

    /** The byte on disk at {@code offset}. */
    public int at(final long offset) {
        return disk[Math.toIntExact(offset)];
    }

    private IoRequest take(final long ioId) {
        final IoRequest r = submitted.remove(ioId);
        if (r == null) {
            throw new IllegalStateException("no I/O " + ioId + " in flight");
        }
        return r;
    }

    private void transfer(final IoRequest r) {
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
