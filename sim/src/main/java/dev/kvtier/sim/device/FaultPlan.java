package dev.kvtier.sim.device;

/**
 * Device faults to inject, as exact ratios per million I/Os (STYLE rule 16), drawn from the run's seeded "faults"
 * stream: EIO on a read or a write (the I/O moves no data and completes with -EIO), latency spikes (an extra
 * {@code spikeNs} on the I/O's channel), and a slow device (every latency multiplied by {@code slowdown}). Faults
 * stop at {@code untilNs} of virtual time, so liveness can be checked once they stop. What the core claims to
 * tolerate: a failed write's keys leave the index (never served from bytes that did not reach L2) and the error is
 * surfaced; a failed read fails its load (the engine recomputes); spikes and slowness only cost time.
 *
 * @param readErrorsPerMillion  reads that fail with EIO, per million
 * @param writeErrorsPerMillion writes that fail with EIO, per million
 * @param spikesPerMillion      I/Os that get a latency spike, per million
 * @param spikeNs               the spike's extra latency
 * @param slowdown              latency multiplier (1 = none)
 * @param untilNs               no fault after this virtual time
 */
public record FaultPlan(int readErrorsPerMillion, int writeErrorsPerMillion, int spikesPerMillion, long spikeNs,
                        int slowdown, long untilNs) {
    /** One in a million. */
    public static final int MILLION = 1_000_000;

    /** No faults. */
    public static final FaultPlan NONE = new FaultPlan(0, 0, 0, 0, 1, 0);

    public FaultPlan {
        perMillion("readErrorsPerMillion", readErrorsPerMillion);
        perMillion("writeErrorsPerMillion", writeErrorsPerMillion);
        perMillion("spikesPerMillion", spikesPerMillion);
        if (spikeNs < 0 || untilNs < 0) {
            throw new IllegalArgumentException("spikeNs and untilNs must not be negative");
        }
        if (slowdown < 1 || slowdown > 1000) {
            throw new IllegalArgumentException("slowdown must be in [1, 1000], got " + slowdown);
        }
    }

    /** True when this plan injects anything. */
    public boolean any() {
        return untilNs > 0 && (readErrorsPerMillion > 0 || writeErrorsPerMillion > 0 || spikesPerMillion > 0
            || slowdown > 1);
    }

    private static void perMillion(final String what, final int v) {
        if (v < 0 || v > MILLION) {
            throw new IllegalArgumentException(what + " must be in [0, 1000000], got " + v);
        }
    }
}
