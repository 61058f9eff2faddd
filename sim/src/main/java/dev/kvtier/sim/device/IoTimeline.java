package dev.kvtier.sim.device;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.profile.DeviceProfile;
import java.util.Arrays;

/**
 * The timing half of the {@link DeviceProfile} service model, shared by the simulated devices: an I/O submitted at
 * t takes the channel that frees first, holds it for its latency (times the slowdown, plus any spike), then, unless
 * it is a FLUSH, transfers its bytes on the one shared data path at the op's bandwidth. The disk's write-back cache
 * ({@link DiskCache}, shared with the other device on the disk) drains what is written, makes a FLUSH wait for that
 * and holds transfers during a FLUSH. A crash resets the state: the device restarts idle.
 */
final class IoTimeline {
    private final DeviceProfile profile;
    private final DiskCache disk;
    private final long[] channelFreeNs;
    private long pathFreeNs;

    IoTimeline(final DeviceProfile profile, final DiskCache disk) {
        this.profile = profile;
        this.disk = disk;
        this.channelFreeNs = new long[profile.parallelism()];
    }

    /** Books an I/O submitted at {@code nowNs}; returns its completion time. */
    long book(final long nowNs, final IoOp op, final long lengthBytes, final int slowdown, final long spikeNs) {
        if (slowdown < 1 || spikeNs < 0) {
            throw new IllegalArgumentException("slowdown " + slowdown + " and spike " + spikeNs + " ns");
        }
        int channel = 0;
        for (int i = 1; i < channelFreeNs.length; i++) {
            if (channelFreeNs[i] < channelFreeNs[channel]) {
                channel = i;
            }
        }
        final long start = Math.max(nowNs, channelFreeNs[channel]);
        final long latencyDone = start + latency(op) * slowdown + spikeNs;
        final long done;
        if (op == IoOp.FLUSH) {
            done = disk.flush(latencyDone);
        } else {
            final long xferStart = disk.transferStart(Math.max(latencyDone, pathFreeNs));
            done = xferStart + DeviceProfile.transferNs(lengthBytes, bandwidth(op));
            pathFreeNs = done;
            if (op == IoOp.WRITE) {
                disk.wrote(nowNs, done, lengthBytes);
            }
        }
        channelFreeNs[channel] = done;
        return done;
    }

    /** Forgets every booking (power loss: the device restarts with free channels and path). */
    void reset() {
        Arrays.fill(channelFreeNs, 0);
        pathFreeNs = 0;
        disk.reset();
    }

    private long latency(final IoOp op) {
        return switch (op) {
            case READ -> profile.readLatencyNs();
            case WRITE -> profile.writeLatencyNs();
            case FLUSH -> profile.flushLatencyNs();
        };
    }

    private long bandwidth(final IoOp op) {
        return op == IoOp.READ ? profile.readBytesPerSec() : profile.writeBytesPerSec();
    }
}
