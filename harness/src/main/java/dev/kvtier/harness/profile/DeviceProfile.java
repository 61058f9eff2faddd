package dev.kvtier.harness.profile;

/**
 * The simulated device's service model, as numbers. Each I/O first occupies one of {@code parallelism} internal
 * channels for its fixed latency (command handling, flash access), overlapping with other I/Os, then transfers its
 * bytes over one shared data path at the op's bandwidth (transfers are serialized). So small random I/O is
 * latency- and parallelism-bound (IOPS about parallelism / latency) and large I/O is bandwidth-bound.
 *
 * <p>A disk with a volatile write-back cache in front of slower stable media (a VM's virtual disk whose host caches
 * writes; an SSD's DRAM) has {@code drainBytesPerSec > 0}: every byte written on the disk (by any device file on
 * it, data or index) drains to stable media at that rate, one byte after another; a FLUSH completes only when all
 * bytes written before it have drained, and no transfer of the disk starts while it is in progress. With 0 the
 * cache is not modelled and a FLUSH costs {@code flushLatencyNs} alone. A cache that holds what was written for a while
 * before writing it back on its own (a host that writes its page cache back late) has {@code drainDelayNs > 0}: a
 * byte drains on its own only that long after its write completed, and a FLUSH makes the cache write back all it
 * holds at the drain rate ({@link WriteBack}).
 *
 * @param name             for reports
 * @param readLatencyNs    per-read fixed latency
 * @param writeLatencyNs   per-write fixed latency
 * @param flushLatencyNs   per-flush latency
 * @param readBytesPerSec  read bandwidth of the shared data path
 * @param writeBytesPerSec write bandwidth of the shared data path
 * @param parallelism      internal channels (I/Os whose latencies overlap)
 * @param drainBytesPerSec rate at which written bytes reach stable media (0: no write-back cache modelled)
 * @param drainDelayNs     how long the cache holds a written byte before writing it back on its own (0: at once)
 */
public record DeviceProfile(String name, long readLatencyNs, long writeLatencyNs, long flushLatencyNs,
                            long readBytesPerSec, long writeBytesPerSec, int parallelism, long drainBytesPerSec,
                            long drainDelayNs) {

    /**
     * A PCIe 4.0 datacenter NVMe drive, from vendor data sheets of that class (about 6.8 GB/s sequential read,
     * 4 GB/s sequential write, about 900k random 4 KiB reads per second): 70 us read and 30 us write latency, 64
     * channels.
     */
    public static final DeviceProfile DATACENTER_NVME = new DeviceProfile("datacenter-nvme", 70_000, 30_000,
        50_000, 6_800_000_000L, 4_000_000_000L, 64);

    /**
     * This project's CI machine's virtual disk (ext4, O_DIRECT), fitted to fio figures: 1 MiB writes about 1.9 GB/s
     * and reads about 1.3 GB/s at depth 16, 4 KiB random reads about 30k IOPS, 64 KiB writes about 1.25 GB/s at
     * depth 16. Sixteen channels, 533 us read and 800 us write latency. {@code kvtier calibrate} measures a disk
     * and writes a profile in this shape.
     */
    public static final DeviceProfile CI_EXT4 = new DeviceProfile("ci-ext4", 533_000, 800_000, 2_000_000,
        1_300_000_000L, 1_900_000_000L, 16);

    public DeviceProfile {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("device profile needs a name");
        }
        positive("readLatencyNs", readLatencyNs);
        positive("writeLatencyNs", writeLatencyNs);
        positive("flushLatencyNs", flushLatencyNs);
        positive("readBytesPerSec", readBytesPerSec);
        positive("writeBytesPerSec", writeBytesPerSec);
        positive("parallelism", parallelism);
        if (parallelism > 1024) {
            throw new IllegalArgumentException("parallelism above 1024 is not a device: " + parallelism);
        }
        if (drainBytesPerSec < 0) {
            throw new IllegalArgumentException("drainBytesPerSec must be 0 (no write-back cache) or positive, got "
                + drainBytesPerSec);
        }
        if (drainDelayNs < 0 || (drainDelayNs > 0 && drainBytesPerSec == 0)) {
            throw new IllegalArgumentException("drainDelayNs must be >= 0, and 0 without a drain rate, got "
                + drainDelayNs + " with drainBytesPerSec " + drainBytesPerSec);
        }
    }

    /** A profile whose write-back cache (if any) starts draining a write as soon as it completes. */
    public DeviceProfile(final String name, final long readLatencyNs, final long writeLatencyNs,
                         final long flushLatencyNs, final long readBytesPerSec, final long writeBytesPerSec,
                         final int parallelism, final long drainBytesPerSec) {
        this(name, readLatencyNs, writeLatencyNs, flushLatencyNs, readBytesPerSec, writeBytesPerSec, parallelism,
            drainBytesPerSec, 0);
    }

    /** A profile without a modelled write-back cache (a drain rate of 0). */
    public DeviceProfile(final String name, final long readLatencyNs, final long writeLatencyNs,
                         final long flushLatencyNs, final long readBytesPerSec, final long writeBytesPerSec,
                         final int parallelism) {
        this(name, readLatencyNs, writeLatencyNs, flushLatencyNs, readBytesPerSec, writeBytesPerSec, parallelism, 0,
            0);
    }

    /** Whether written bytes drain through a modelled write-back cache that FLUSH waits for. */
    public boolean drains() {
        return drainBytesPerSec > 0;
    }

    /** The write-back cache's timing, fresh (nothing held); null without a drain rate. */
    public WriteBack writeBack() {
        return drains() ? new WriteBack(drainBytesPerSec, drainDelayNs) : null;
    }

    /** A bundled profile by name, or null. */
    public static DeviceProfile bundled(final String name) {
        return switch (name) {
            case "datacenter-nvme" -> DATACENTER_NVME;
            case "ci-ext4" -> CI_EXT4;
            default -> null;
        };
    }

    /** Transfer time of {@code bytes} at {@code bytesPerSec}, rounded up to a whole nanosecond. */
    public static long transferNs(final long bytes, final long bytesPerSec) {
        return Math.ceilDiv(Math.multiplyExact(bytes, 1_000_000_000L), bytesPerSec);
    }

    private static void positive(final String what, final long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be positive, got " + value);
        }
    }
}
