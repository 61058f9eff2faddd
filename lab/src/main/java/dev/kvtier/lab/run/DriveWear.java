package dev.kvtier.lab.run;

import dev.kvtier.harness.metrics.L2Traffic;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import java.io.PrintStream;
import java.util.Locale;

/**
 * What a run asked of its L2 drive: bandwidth (mean over the run, and the busiest one-minute window) and drive writes
 * per day, for a drive the size of the L2 ({@code l2Bytes}) unless told otherwise. A trace replayed at a time scale
 * (arrivals at {@code timeScale} times the trace's own rate) also gets the figure at the trace's own rate.
 *
 * @param driveBytes the drive's capacity
 * @param timeScale  the trace's time scale (1 for other workloads): the run's rate over the trace's own
 */
public record DriveWear(long driveBytes, double timeScale) {
    /** The drive of {@code sc}: its L2, at its trace's time scale. */
    public static DriveWear of(final Scenario sc) {
        return new DriveWear(sc.spec().core().l2Bytes(), timeScale(sc));
    }

    /** The trace's time scale of {@code sc} ({@code workload.traceTimeScale}; 1 without a trace). */
    public static double timeScale(final Scenario sc) {
        final String s = sc.knobs().get("workload.traceTimeScale");
        return s == null ? 1 : Double.parseDouble(s);
    }

    /** Prints the two lines: L2 bandwidth, and drive writes per day. */
    public void print(final PrintStream out, final RunReport r) {
        final L2Traffic.Figures t = r.metrics().l2Traffic();
        final double s = r.elapsedNanos() / 1e9;
        final double window = L2Traffic.peakWindowSeconds(s);
        out.printf(Locale.ROOT, "L2 bandwidth  write mean %s, peak minute %s; read mean %s, peak minute %s; index "
            + "writes %.1f MiB%s%n", mbps(t.writeBytes() / s), mbps(t.peakMinuteWriteBytes() / window),
            mbps(t.readBytes() / s), mbps(t.peakMinuteReadBytes() / window), t.indexWriteBytes() / (double) (1 << 20),
            s < 60 ? " (a run shorter than a minute: its peak is its mean)" : "");
        final double dwpd = t.driveWritesPerDay(driveBytes, r.elapsedNanos());
        out.printf(Locale.ROOT, "drive writes per day  %.3f of a %.1f GiB drive at this run's rate (data and index "
            + "writes)%s%n", dwpd, driveBytes / (double) (1L << 30),
            timeScale == 1 ? ""
                : String.format(Locale.ROOT, "; %.3f at the trace's own rate (the run replays it at %s x its rate)",
                    dwpd / timeScale, timeScale));
    }

    private static String mbps(final double bytesPerSec) {
        return String.format(Locale.ROOT, "%.1f MB/s", bytesPerSec / 1e6);
    }
}
