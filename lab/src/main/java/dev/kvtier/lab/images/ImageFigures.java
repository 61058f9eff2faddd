package dev.kvtier.lab.images;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.crash.KillVerdict;
import dev.kvtier.realio.record.DeviceRole;
import dev.kvtier.realio.record.IoLog;
import java.io.PrintStream;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The figures of a crash-image check as its images are judged: images checked, violations (the first few printed in
 * full), chunks recovered and read back, commits that had to survive, and
 * the time of each image's recovery; and the one-line summary of a record.
 */
final class ImageFigures {
    private final PrintStream out;
    private final int shownMax;
    private final Histogram recovery = new Histogram(3);
    private long images;
    private long violations;
    private long lost;
    private long wrongBytes;
    private long notPrefix;
    private long recovered;
    private long readBack;
    private long unreadable;
    private long mustSurvive;
    private long withRecovered;
    private long withMust;

    ImageFigures(final PrintStream out, final int shownMax) {
        this.out = out;
        this.shownMax = shownMax;
    }

    /** One line: what the record holds. */
    static void printRecord(final PrintStream out, final IoLog log, final Timeline t) {
        long data = 0;
        long dataBytes = 0;
        for (final Timeline.Write w : t.writes()) {
            if (w.role() == DeviceRole.DATA) {
                data++;
                dataBytes += w.pages() * 4096L;
            }
        }
        out.printf(Locale.ROOT, "record: %,d entries, %,d writes (data %,d of %.1f MiB, index %,d), %,d flushes, "
            + "%,d core events; contents kept %.1f MiB in memory (bound %,d MiB)%n", t.cuts(), t.writes().size(),
            data, dataBytes / 1048576.0, t.writes().size() - data, t.flushes(), log.events(),
            log.pages().bytes() / 1048576.0, log.pages().maxBytes() >> 20);
    }

    /** Counts the verdict on {@code image}, and prints it when it is one of the first violations. */
    void add(final ImagePlan.Image image, final KillVerdict v) {
        images++;
        recovered += v.recovered();
        readBack += v.readBack();
        unreadable += v.unreadable();
        mustSurvive += v.mustSurvive();
        lost += v.lost();
        wrongBytes += v.wrongBytes();
        notPrefix += v.prefix() ? 0 : 1;
        withRecovered += v.recovered() > 0 ? 1 : 0;
        withMust += v.mustSurvive() > 0 ? 1 : 0;
        if (v.recoveryNanos() >= 0) {
            recovery.recordValue(Math.max(1, v.recoveryNanos()));
        }
        if (v.ok()) {
            return;
        }
        violations++;
        if (violations <= shownMax) {
            out.println("VIOLATION " + v.point());
            v.failures().stream().limit(5).forEach(f -> out.println("    " + f));
            out.println("    (the record is kept: the command printed at the end checks this image again)");
        }
    }

    /** Violations so far. */
    long violations() {
        return violations;
    }

    /** Prints the figures; the exit code. */
    int finish(final CommitMode mode, final double recordS, final double checkS) {
        out.printf(Locale.ROOT, "images built %,d, checked %,d, violations %,d (must be 0): lost %,d, wrong bytes "
            + "%,d, not a prefix %,d%n", images, images, violations, lost, wrongBytes, notPrefix);
        out.printf(Locale.ROOT, "recovered %,d chunks over all images (%,d images recovered any): %,d read back with "
            + "their bytes, %,d unreadable (a failed checksum: a miss); %,d commits had to survive, in %,d images "
            + "(%s)%n", recovered, withRecovered, readBack, unreadable, mustSurvive, withMust,
            mode == CommitMode.DURABLE ? "durable mode: every one acknowledged before the cut and not evicted"
                : "l1 mode: those before a durable shutdown");
        out.printf(Locale.ROOT, "recovery of an image (the core's open with recover, in memory): p50 %.1f ms  p99 %.1f "
            + "ms  max %.1f ms%n", recovery.getValueAtPercentile(50) / 1e6, recovery.getValueAtPercentile(99) / 1e6,
            recovery.getMaxValue() / 1e6);
        out.printf(Locale.ROOT, "%s: %,d images in %.1f s (record %.1f s, check %.1f s, %.1f ms an image)%n",
            violations == 0 ? "OK" : "FAILED", images, recordS + checkS, recordS, checkS,
            images == 0 ? 0 : checkS * 1e3 / images);
        return violations == 0 ? ExitCodes.OK : ExitCodes.INVARIANT;
    }
}
