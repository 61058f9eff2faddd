package dev.kvtier.sim.device;

import dev.kvtier.harness.profile.DeviceProfile;

/**
 * The volatile write-back cache of the one disk the simulated devices sit on (the data device and the index device
 * share it, as the real run's two files share a disk): {@link DeviceProfile#drainBytesPerSec}. Every written byte
 * drains to stable media at that rate, in order, from the write's completion; a FLUSH completes no earlier than the
 * moment everything written before it has drained, and no transfer of the disk starts before the FLUSH completes (a
 * host that writes its cache back holds the disk's other I/O meanwhile). A profile without the rate leaves every
 * timing as the channels and the data path give it. A crash empties the cache (its bytes are the write caches'
 * concern, {@link WriteCache}); this is only timing.
 */
public final class DiskCache {
    private final long drainBytesPerSec;
    private long drainedAtNs;
    private long barrierNs;

    /** The cache {@code profile} describes (none when its drain rate is 0). */
    public DiskCache(final DeviceProfile profile) {
        this.drainBytesPerSec = profile.drainBytesPerSec();
    }

    /** A transfer that could start at {@code startNs}: when it does start (after a FLUSH in progress). */
    long transferStart(final long startNs) {
        return Math.max(startNs, barrierNs);
    }

    /** A write of {@code bytes} reached the cache at {@code doneNs}. */
    void wrote(final long doneNs, final long bytes) {
        if (drainBytesPerSec > 0) {
            drainedAtNs = Math.max(drainedAtNs, doneNs) + DeviceProfile.transferNs(bytes, drainBytesPerSec);
        }
    }

    /** A FLUSH whose own latency ends at {@code latencyDoneNs}: when it completes; holds the disk until then. */
    long flush(final long latencyDoneNs) {
        if (drainBytesPerSec == 0) {
            return latencyDoneNs;
        }
        final long done = Math.max(latencyDoneNs, drainedAtNs);
        barrierNs = Math.max(barrierNs, done);
        return done;
    }

    /** Power loss: the disk restarts with an empty cache and nothing in progress. */
    void reset() {
        drainedAtNs = 0;
        barrierNs = 0;
    }
}
