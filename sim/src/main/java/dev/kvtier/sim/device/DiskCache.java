package dev.kvtier.sim.device;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.WriteBack;

/**
 * The volatile write-back cache of the one disk the simulated devices sit on (the data device and the index device
 * share it, as the real run's two files share a disk): {@link DeviceProfile#drainBytesPerSec} and
 * {@link DeviceProfile#drainDelayNs}, timed by {@link WriteBack}. Every written byte drains to stable media at that
 * rate, in order, on its own from its write's completion plus the delay; a FLUSH completes when everything written
 * before it has drained (forcing out what the cache still holds), and no transfer of the disk starts before the FLUSH
 * completes (a host that writes its cache back holds the disk's other I/O meanwhile). A profile without the rate leaves
 * every timing as the channels and the data path give it. A crash empties the cache (its bytes are the write caches'
 * concern, {@link WriteCache}); this is only timing.
 */
public final class DiskCache {
    /** Null when the profile models no cache. */
    private final WriteBack writeBack;
    private long barrierNs;

    /** The cache {@code profile} describes (none when its drain rate is 0). */
    public DiskCache(final DeviceProfile profile) {
        this.writeBack = profile.writeBack();
    }

    /** A transfer that could start at {@code startNs}: when it does start (after a FLUSH in progress). */
    long transferStart(final long startNs) {
        return Math.max(startNs, barrierNs);
    }

    /** A write of {@code bytes}, booked at {@code nowNs}, reaches the cache at {@code doneNs}. */
    void wrote(final long nowNs, final long doneNs, final long bytes) {
        if (writeBack != null) {
            writeBack.wrote(nowNs, doneNs, bytes);
        }
    }

    /** A FLUSH whose own latency ends at {@code latencyDoneNs}: when it completes; holds the disk until then. */
    long flush(final long latencyDoneNs) {
        if (writeBack == null) {
            return latencyDoneNs;
        }
        final long done = writeBack.flush(latencyDoneNs);
        barrierNs = Math.max(barrierNs, done);
        return done;
    }

    /** Power loss: the disk restarts with an empty cache and nothing in progress. */
    void reset() {
        if (writeBack != null) {
            writeBack.reset();
        }
        barrierNs = 0;
    }
}
