package dev.kvtier.property.chain;

import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.sim.memory.RunMap;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The chain's two devices seen as one queue of in-flight I/Os: the data device's, in submission order, then the
 * index device's. The core gives both one id space, so "oldest" is the lowest I/O id of the two heads. An in-order
 * chain completes only the head of either device (each device is a depth-1 queue).
 */
final class ChainDevices {
    final ControlledDevice<RunMap> data;
    final ControlledDevice<byte[]> index;

    ChainDevices(final ControlledDevice<RunMap> data, final ControlledDevice<byte[]> index) {
        this.data = data;
        this.index = index;
    }

    void connect(final Consumer<IoCompletion> target) {
        data.connect(target);
        index.connect(target);
    }

    int inFlightCount() {
        return data.inFlightCount() + index.inFlightCount();
    }

    /** Positions (in the joint queue) an action may complete: every one, or each device's head when in order. */
    List<Integer> choices(final boolean inOrder) {
        final List<Integer> out = new ArrayList<>();
        if (!inOrder) {
            for (int i = 0; i < inFlightCount(); i++) {
                out.add(i);
            }
            return out;
        }
        if (data.inFlightCount() > 0) {
            out.add(0);
        }
        if (index.inFlightCount() > 0) {
            out.add(data.inFlightCount());
        }
        return out;
    }

    /** The position of the oldest I/O in flight (lowest id); -1 when none is. */
    int oldest() {
        if (inFlightCount() == 0) {
            return -1;
        }
        if (data.inFlightCount() == 0) {
            return 0;
        }
        if (index.inFlightCount() == 0) {
            return 0;
        }
        return data.inFlight(0).ioId() < index.inFlight(0).ioId() ? 0 : data.inFlightCount();
    }

    void complete(final int position) {
        if (position < data.inFlightCount()) {
            data.complete(position);
        } else {
            index.complete(position - data.inFlightCount());
        }
    }

    String describe(final int position) {
        return position < data.inFlightCount() ? data.describe(position)
            : index.describe(position - data.inFlightCount());
    }
}
