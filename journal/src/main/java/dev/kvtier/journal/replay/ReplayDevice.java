package dev.kvtier.journal.replay;

import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.IoRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The device port for replay: it records each submission and moves nothing. Completions are not its business: the
 * journal's {@code IoCompleted} inputs say which I/O finished, with what result and in what order, and replay hands
 * them to the core after {@link #complete} checked that the I/O is in flight.
 */
public final class ReplayDevice implements Device {
    private final long capacityBytes;
    private final Map<Long, IoRequest> inFlight = new LinkedHashMap<>();
    private long submitted;

    /** A device of {@code capacityBytes}, the L2 size the run was configured with. */
    public ReplayDevice(final long capacityBytes) {
        if (capacityBytes <= 0) {
            throw new IllegalArgumentException("capacityBytes must be positive, got " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
    }

    @Override
    public long capacityBytes() {
        return capacityBytes;
    }

    @Override
    public void submit(final IoRequest request) {
        if (request.fileOffset() + request.lengthBytes() > capacityBytes) {
            throw new IllegalArgumentException("I/O " + request.ioId() + " ends at "
                + (request.fileOffset() + request.lengthBytes()) + ", past the device's " + capacityBytes + " B");
        }
        if (inFlight.putIfAbsent(request.ioId(), request) != null) {
            throw new IllegalStateException("I/O " + request.ioId() + " submitted twice");
        }
        submitted++;
    }

    /** Whether {@code ioId} was submitted and has not completed. */
    public boolean isInFlight(final long ioId) {
        return inFlight.containsKey(ioId);
    }

    /** Marks {@code ioId} complete; it must be in flight. */
    public void complete(final long ioId) {
        if (inFlight.remove(ioId) == null) {
            throw new IllegalStateException("completion of I/O " + ioId + ", which is not in flight");
        }
    }

    /** I/Os submitted and not completed, in submission order. */
    public List<IoRequest> inFlight() {
        return new ArrayList<>(inFlight.values());
    }

    /** I/Os submitted so far. */
    public long submitted() {
        return submitted;
    }
}
