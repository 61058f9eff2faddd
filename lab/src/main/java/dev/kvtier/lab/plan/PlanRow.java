package dev.kvtier.lab.plan;

import dev.kvtier.harness.metrics.L2Traffic;
import dev.kvtier.harness.metrics.RunMetrics;
import dev.kvtier.harness.metrics.RunMetrics.Percentiles;
import dev.kvtier.harness.metrics.TokenSources;
import dev.kvtier.harness.run.RunReport;
import java.util.Map;

/**
 * One cell of a plan: the sizes a user would buy (real bytes), the admission policy, and what the simulated run gave.
 * Byte figures are the real model's (the simulated ones times the {@link KvScale} factor; index writes are not
 * scaled: an index record is per slot, whatever its size). Latencies are of the phase with the most requests (a
 * trace's only phase).
 *
 * @param l1Bytes            L1 (host memory), real bytes
 * @param l2Bytes            L2 (drive), real bytes
 * @param admission          {@code all} or {@code second-sight}
 * @param fromL1             input tokens served from L1, over all input tokens
 * @param fromL2             input tokens served from L2, over all input tokens
 * @param ttftP50Ms          time to first token, p50 (ms)
 * @param ttftP99Ms          time to first token, p99 (ms)
 * @param endToEndP50Ms      arrival to last token, p50 (ms)
 * @param endToEndP99Ms      arrival to last token, p99 (ms)
 * @param writeMeanBytesPerSec L2 data writes, mean over the run (real bytes a second, at the run's rate)
 * @param writePeakBytesPerSec L2 data writes in the busiest minute
 * @param readMeanBytesPerSec  L2 data reads, mean over the run
 * @param readPeakBytesPerSec  L2 data reads in the busiest minute
 * @param driveWritesPerDay  data and index writes a day at the trace's own rate, over {@code driveBytes}
 * @param driveBytes         the drive the wear is for
 * @param ok                 every invariant held
 * @param digest             the run's event digest
 * @param events             the run's events
 * @param wallSeconds        the run's wall time
 */
public record PlanRow(long l1Bytes, long l2Bytes, String admission, double fromL1, double fromL2, double ttftP50Ms,
                      double ttftP99Ms, double endToEndP50Ms, double endToEndP99Ms, double writeMeanBytesPerSec,
                      double writePeakBytesPerSec, double readMeanBytesPerSec, double readPeakBytesPerSec,
                      double driveWritesPerDay, long driveBytes, boolean ok, String digest, long events,
                      double wallSeconds) {

    /** The row of {@code cell}'s run {@code r}, scaled by {@code scale}; a run at {@code timeScale} of the trace. */
    static PlanRow of(final PlanCell cell, final RunReport r, final KvScale scale, final double timeScale,
                      final long driveBytes, final double wallSeconds) {
        final RunReport.Metrics m = r.metrics();
        final TokenSources t = m.tokenSources();
        final double input = Math.max(1, t.input());
        final String phase = busiest(m.requests());
        final Percentiles ttft = m.ttftNanos().get(phase);
        final Percentiles e2e = m.requests().get(phase).endToEndNanos();
        final L2Traffic.Figures l2 = m.l2Traffic();
        final double f = scale.factor();
        final double secs = r.elapsedNanos() / 1e9;
        final double window = L2Traffic.peakWindowSeconds(secs);
        final double dwpd = l2.driveWritesPerDay(driveBytes, r.elapsedNanos(), f) / timeScale;
        return new PlanRow(cell.l1Bytes(), cell.l2Bytes(), cell.admissionName(), t.fromL1() / input,
            t.fromL2() / input, ttft.p50() / 1e6, ttft.p99() / 1e6, e2e.p50() / 1e6, e2e.p99() / 1e6,
            l2.writeBytes() * f / secs, l2.peakMinuteWriteBytes() * f / window, l2.readBytes() * f / secs,
            l2.peakMinuteReadBytes() * f / window, dwpd, driveBytes, r.ok(), r.eventDigest(), r.events(),
            wallSeconds);
    }

    /** Tokens served from either tier, over all input tokens. */
    public double hitRatio() {
        return fromL1 + fromL2;
    }

    private static String busiest(final Map<String, RunMetrics.RequestPhase> phases) {
        String best = null;
        long most = -1;
        for (final Map.Entry<String, RunMetrics.RequestPhase> e : phases.entrySet()) {
            if (e.getValue().endToEndNanos().count() > most) {
                most = e.getValue().endToEndNanos().count();
                best = e.getKey();
            }
        }
        if (best == null) {
            throw new IllegalStateException("the run finished no request");
        }
        return best;
    }
}
