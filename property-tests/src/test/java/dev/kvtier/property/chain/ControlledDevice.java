package dev.kvtier.property.chain;

import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoOp;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.sim.memory.ProvenanceMemory.ProvRegion;
import dev.kvtier.sim.memory.RunMap;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A device whose completions the action chain chooses. Submissions are held, in submission order, until an action
 * completes (or fails) one of them by index, so a chain can complete I/Os in any order a real NVMe queue may. Data
 * moves at completion, on the disk's provenance map, as {@code SimDevice} does: a slice reused before its write
 * completed, or a read served before the write it waited for, shows up as wrong bytes on a later load.
 */
final class ControlledDevice implements Device {
    private final long capacityBytes;
    private final RunMap disk = new RunMap();
    private final List<IoRequest> inFlight = new ArrayList<>();
    private Consumer<IoCompletion> target;
    private long completed;

    ControlledDevice(final long capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    /** Where completions go (the server); wired once by the harness. */
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
            throw new IllegalArgumentException("I/O [" + request.fileOffset() + ", +" + request.lengthBytes()
                + ") past the end of " + capacityBytes + " B");
        }
        inFlight.add(request);
    }

    int inFlightCount() {
        return inFlight.size();
    }

    IoRequest inFlight(final int index) {
        return inFlight.get(index);
    }

    long completedCount() {
        return completed;
    }

    /** Completes the I/O at {@code index} (submission order) successfully, moving its data. */
    void complete(final int index) {
        final IoRequest r = inFlight.remove(index);
        transfer(r);
        completed++;
        target.accept(new IoCompletion(r.ioId(), r.op() == IoOp.FLUSH ? 0 : r.lengthBytes()));
    }

    /** Fails the I/O at {@code index} with EIO; no data moves. */
    void fail(final int index) {
        final IoRequest r = inFlight.remove(index);
        completed++;
        target.accept(new IoCompletion(r.ioId(), -IoCompletion.EIO));
    }

    /** A readable name for the I/O at {@code index}: {@code io#7 WRITE [8192,+4096)}. */
    String describe(final int index) {
        final IoRequest r = inFlight.get(index);
        return "io#" + r.ioId() + " " + r.op() + " [" + r.fileOffset() + ",+" + r.lengthBytes() + ")";
    }

    private void transfer(final IoRequest r) {
        long file = r.fileOffset();
        for (final IoSegment s : r.segments()) {
            final RunMap memory = ((ProvRegion) s.region()).runs();
            if (r.op() == IoOp.WRITE) {
                disk.copyFrom(memory, s.regionOffset(), file, s.lengthBytes());
            } else if (r.op() == IoOp.READ) {
                memory.copyFrom(disk, file, s.regionOffset(), s.lengthBytes());
            }
            file += s.lengthBytes();
        }
    }
}
