package dev.kvtier.sim.device;

import dev.kvtier.core.port.Clock;
import dev.kvtier.core.port.Device;
import dev.kvtier.core.port.Entropy;
import dev.kvtier.core.port.IoCompletion;
import dev.kvtier.core.port.IoOp;
import dev.kvtier.core.port.IoRequest;
import dev.kvtier.core.port.IoSegment;
import dev.kvtier.core.port.Scheduler;
import dev.kvtier.sim.memory.ProvenanceMemory.ProvRegion;
import dev.kvtier.sim.memory.RunMap;
import java.util.function.Consumer;

/**
 * The simulated L2 device ({@link DeviceProfile} says the service model). An I/O submitted at time t (the server
 * thread's clock, so host cost before the submit counts) takes the channel that frees first, holds it for its
 * latency, then for its transfer on the shared data path; it completes when the transfer ends. Completion order
 * follows completion time (then submission order). Data moves at completion: the disk's provenance map takes the
 * written ranges, or the read lands in memory, so a slice reused before its write completed would be caught.
 */
public final class SimDevice implements Device {
    private final DeviceProfile profile;
    private final long capacityBytes;
    private final Scheduler loop;
    private final Clock submitClock;
    private final RunMap disk = new RunMap();
    private final long[] channelFreeNs;
    private final Consumer<IoCompletion> target;
    private final FaultPlan faults;
    private final Entropy faultStream;
    private long pathFreeNs;
    private long injectedErrors;
    private long injectedSpikes;
    private long reads;
    private long writes;
    private long flushes;
    private long bytesRead;
    private long bytesWritten;

    /**
     * @param submitClock the time at which submissions happen (the simulated server thread's clock)
     * @param target      receives each completion (the composition root routes it through the server thread)
     */
    public SimDevice(final DeviceProfile profile, final long capacityBytes, final Scheduler loop,
                     final Clock submitClock, final Consumer<IoCompletion> target) {
        this(profile, capacityBytes, loop, submitClock, target, FaultPlan.NONE, null);
    }

    /**
     * A device that injects {@code faults}, drawing every fault decision from {@code faultStream} (seeded), in
     * submission order.
     */
    public SimDevice(final DeviceProfile profile, final long capacityBytes, final Scheduler loop,
                     final Clock submitClock, final Consumer<IoCompletion> target, final FaultPlan faults,
                     final Entropy faultStream) {
        if (faults.any() && faultStream == null) {
            throw new IllegalArgumentException("a fault plan needs a seeded fault stream");
        }
        this.faults = faults;
        this.faultStream = faultStream;
        this.profile = profile;
        this.capacityBytes = capacityBytes;
        this.loop = loop;
        this.submitClock = submitClock;
        this.target = target;
        this.channelFreeNs = new long[profile.parallelism()];
    }

    @Override
    public long capacityBytes() {
        return capacityBytes;
    }

    @Override
    public void submit(final IoRequest request) {
        final long length = request.lengthBytes();
        if (request.fileOffset() + length > capacityBytes) {
            throw new IllegalArgumentException("I/O [" + request.fileOffset() + ", +" + length + ") past the end of "
                + capacityBytes + " B");
        }
        final long t = submitClock.nowNs();
        int channel = 0;
        for (int i = 1; i < channelFreeNs.length; i++) {
            if (channelFreeNs[i] < channelFreeNs[channel]) {
                channel = i;
            }
        }
        final long start = Math.max(t, channelFreeNs[channel]);
        final boolean faulty = faults.any() && t < faults.untilNs();
        final long spike = faulty && draw(faults.spikesPerMillion()) ? faults.spikeNs() : 0;
        final long latencyDone = start + latency(request.op()) * (faulty ? faults.slowdown() : 1) + spike;
        final boolean fail = faulty && request.op() != IoOp.FLUSH && draw(request.op() == IoOp.READ
            ? faults.readErrorsPerMillion() : faults.writeErrorsPerMillion());
        if (spike > 0) {
            injectedSpikes++;
        }
        final long done;
        if (request.op() == IoOp.FLUSH) {
            done = latencyDone;
        } else {
            final long xferStart = Math.max(latencyDone, pathFreeNs);
            done = xferStart + DeviceProfile.transferNs(length, bandwidth(request.op()));
            pathFreeNs = done;
        }
        channelFreeNs[channel] = done;
        if (fail) {
            injectedErrors++;
            loop.at(done, () -> target.accept(new IoCompletion(request.ioId(), -IoCompletion.EIO)));
            return;
        }
        loop.at(done, () -> complete(request));
    }

    /** True with probability {@code perMillion} / 1,000,000, from the fault stream. */
    private boolean draw(final int perMillion) {
        return perMillion > 0 && faultStream.nextInt(FaultPlan.MILLION) < perMillion;
    }

    /** I/Os failed with EIO by the fault plan. */
    public long injectedErrors() {
        return injectedErrors;
    }

    /** I/Os given a latency spike by the fault plan. */
    public long injectedSpikes() {
        return injectedSpikes;
    }

    private void complete(final IoRequest r) {
        long file = r.fileOffset();
        switch (r.op()) {
            case WRITE -> {
                for (final IoSegment s : r.segments()) {
                    disk.copyFrom(((ProvRegion) s.region()).runs(), s.regionOffset(), file, s.lengthBytes());
                    file += s.lengthBytes();
                }
                writes++;
                bytesWritten += r.lengthBytes();
            }
            case READ -> {
                for (final IoSegment s : r.segments()) {
                    ((ProvRegion) s.region()).runs().copyFrom(disk, file, s.regionOffset(), s.lengthBytes());
                    file += s.lengthBytes();
                }
                reads++;
                bytesRead += r.lengthBytes();
            }
            case FLUSH -> flushes++;
        }
        target.accept(new IoCompletion(r.ioId(), r.op() == IoOp.FLUSH ? 0 : r.lengthBytes()));
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

    /** The disk's provenance (what each L2 byte holds). */
    public RunMap disk() {
        return disk;
    }

    public DeviceProfile profile() {
        return profile;
    }

    public long reads() {
        return reads;
    }

    public long writes() {
        return writes;
    }

    public long flushes() {
        return flushes;
    }

    public long bytesRead() {
        return bytesRead;
    }

    public long bytesWritten() {
        return bytesWritten;
    }
}
