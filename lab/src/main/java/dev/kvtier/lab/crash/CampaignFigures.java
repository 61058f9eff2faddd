package dev.kvtier.lab.crash;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A campaign's figures over its kills' verdicts: kills by where in its life each run died, commits acknowledged and
 * those that had to survive, chunks recovered and read back, and the three that must be 0 (lost, wrong bytes, not a
 * prefix), with the recovery time's percentiles (HdrHistogram, 3 significant digits).
 *
 * @param kills        kills judged
 * @param failed       kills with a failure
 * @param byLife       kills by where their run died, in the order first seen (setup, phases, checkpoint, ...)
 * @param acknowledged commits acknowledged before the kills
 * @param mustSurvive  of those, the ones the claim says must survive
 * @param recovered    chunks recovered
 * @param readBack     chunks read back with their bytes
 * @param unreadable   chunks whose load failed its checksum (a miss)
 * @param lost         commits that had to survive and did not
 * @param wrongBytes   chunks served with other bytes than their key's
 * @param notPrefix    kills whose recovery was not a prefix of the log
 * @param notRecovered acknowledged commits not evicted before the kill and not recovered (allowed in l1 mode)
 * @param recovery     the recovery times, in nanoseconds
 */
public record CampaignFigures(long kills, long failed, Map<String, Long> byLife, long acknowledged, long mustSurvive,
                              long recovered, long readBack, long unreadable, long lost, long wrongBytes,
                              long notPrefix, long notRecovered, Histogram recovery) {

    /** The figures of {@code verdicts}. */
    public static CampaignFigures of(final List<KillVerdict> verdicts) {
        final Map<String, Long> byLife = new LinkedHashMap<>();
        final Histogram recovery = new Histogram(3);
        final long[] sums = new long[10];
        for (final KillVerdict v : verdicts) {
            byLife.merge(v.life() == null ? "(did not die of its kill)" : v.life(), 1L, Long::sum);
            sums[0] += v.ok() ? 0 : 1;
            sums[1] += v.acknowledged();
            sums[2] += v.mustSurvive();
            sums[3] += v.recovered();
            sums[4] += v.readBack();
            sums[5] += v.unreadable();
            sums[6] += v.lost();
            sums[7] += v.wrongBytes();
            sums[8] += v.prefix() ? 0 : 1;
            sums[9] += v.notRecovered();
            if (v.recoveryNanos() > 0) {
                recovery.recordValue(v.recoveryNanos());
            }
        }
        return new CampaignFigures(verdicts.size(), sums[0], byLife, sums[1], sums[2], sums[3], sums[4], sums[5],
            sums[6], sums[7], sums[8], sums[9], recovery);
    }

    /** Whether every kill held. */
    public boolean ok() {
        return failed == 0;
    }

    /** Prints the figures; {@code durable} says which claim the commits had to meet. */
    public void print(final PrintStream out, final boolean durable) {
        final List<String> lives = new ArrayList<>();
        byLife.forEach((life, n) -> lives.add(life + " " + n));
        out.printf(Locale.ROOT, "kills %,d (where each run died: %s)%n", kills, String.join(", ", lives));
        out.printf(Locale.ROOT, "acknowledged %,d commits before their kills; %,d had to survive (%s)%n", acknowledged,
            mustSurvive, durable ? "durable mode: every one not evicted before its kill"
                : "l1 mode: only those before a shutdown that completed");
        out.printf(Locale.ROOT, "recovered %,d chunks: %,d read back with their bytes, %,d unreadable (a failed "
            + "checksum: a miss, never a wrong byte)%n", recovered, readBack, unreadable);
        out.printf(Locale.ROOT, "lost %,d (must be 0)   wrong bytes %,d (must be 0)   not a prefix of the log %,d "
            + "(must be 0)%n", lost, wrongBytes, notPrefix);
        out.printf(Locale.ROOT, "acknowledged, not evicted and not recovered: %,d%s%n", notRecovered, durable
            ? "" : " (allowed in l1 mode: its COMMIT records are written lazily)");
        if (recovery.getTotalCount() == 0) {
            out.println("recovery: none timed");
            return;
        }
        out.printf(Locale.ROOT, "recovery (the core's open with recover, in a fresh process): p50 %.1f ms  p99 %.1f "
            + "ms%s  max %.1f ms (%,d recoveries%s)%n", ms(recovery.getValueAtPercentile(50)),
            ms(recovery.getValueAtPercentile(99)), recovery.getTotalCount() < 100 ? "*" : "",
            ms(recovery.getMaxValue()), recovery.getTotalCount(), recovery.getTotalCount() < 100
                ? "; * fewer than 100 samples: p99 is near the maximum" : "");
    }

    /** Prints each failure with the command that reruns it and the files kept. */
    public static void printFailures(final PrintStream out, final List<CampaignSummary.Failure> failures) {
        for (final CampaignSummary.Failure f : failures) {
            out.println("FAILED: kill " + f.kill() + " at " + f.point() + (f.life() == null ? "" : " (died in "
                + f.life() + ")") + ":");
            for (final String what : f.what()) {
                out.println("  " + what);
            }
            out.println("  reproduce: " + f.reproduce());
            if (!f.kept().isEmpty()) {
                out.println("  kept: " + String.join(" ", f.kept()));
            }
        }
    }

    private static double ms(final long nanos) {
        return nanos / 1e6;
    }
}
