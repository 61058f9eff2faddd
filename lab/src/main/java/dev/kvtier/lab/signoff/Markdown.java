package dev.kvtier.lab.signoff;

import dev.kvtier.harness.metrics.RunMetrics.Percentiles;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.realio.run.DiskMeter;
import java.util.List;
import java.util.Locale;

/** The human half of a sign-off result. */
public final class Markdown {
    private Markdown() {}

    /** PASS or FAIL, and {@code (measured on a busy machine)} when it was. */
    static String verdict(final SignoffReport r) {
        return (r.pass() ? "PASS" : "FAIL") + (r.conditions() != null && r.conditions().busy()
            ? " (measured on a busy machine)" : "");
    }

    static String of(final SignoffReport r, final List<String> plots) {
        final StringBuilder b = new StringBuilder();
        b.append("# Sign-off: ").append(r.scenario()).append(" on ").append(r.host()).append(", ").append(r.date())
            .append("\n\n**Verdict: ").append(verdict(r)).append("**");
        for (final String reason : r.reasons()) {
            b.append("\n- ").append(reason);
        }
        if (r.conditions() != null) {
            b.append("\n\nConditions: ").append(r.conditions().describe()).append('.');
        }
        b.append("\n\nDevice `").append(r.device()).append("`, seed ").append(r.seed()).append(". Real run: ")
            .append(r.real().ok() ? "every invariant held" : r.real().violation()).append(", ")
            .append(r.real().metrics().wrongBytes()).append(" wrong bytes loaded. Simulated run on the calibrated "
                + "profiles (device `")
            .append(r.deviceProfile().name()).append("`, host `")
            .append(r.hostProfile().name()).append("`): ")
            .append(r.sim().ok() ? "every invariant held" : r.sim().violation()).append(".\n\n");
        figures(b, r);
        b.append("First repetition (seed ").append(r.seed()).append("):\n\n");
        b.append("| figure | real | simulated |\n|---|---|---|\n");
        row(b, "store bandwidth (stored / cold phase)", gbps(r.storeBytesPerSec()), gbps(r.simStoreBytesPerSec()));
        for (final SignoffReport.PhaseFidelity p : r.phases()) {
            row(b, "phase " + p.name(), secs(p.realNanos()), secs(p.simNanos()) + String.format(Locale.ROOT,
                " (fidelity %.2f)", p.fidelity()));
        }
        ttft(b, r.real(), r.sim());
        row(b, "store ack p50 / p99", ms(r.real().metrics().storeAckNanos()), ms(r.sim().metrics().storeAckNanos()));
        row(b, "load p50 / p99", ms(r.real().metrics().loadNanos()), ms(r.sim().metrics().loadNanos()));
        row(b, "L1 hit ratio", String.format(Locale.ROOT, "%.3f", r.real().metrics().l1HitRatio()),
            String.format(Locale.ROOT, "%.3f", r.sim().metrics().l1HitRatio()));
        row(b, "L2 writes / reads", r.real().metrics().l2Writes() + " / " + r.real().metrics().l2Reads(),
            r.sim().metrics().l2Writes() + " / " + r.sim().metrics().l2Reads());
        b.append('\n');
        final DiskMeter.Figures d = r.disk();
        b.append(String.format(Locale.ROOT, "The store bandwidth above is the workload's rate (bytes stored over the "
            + "cold phase): prefill time sets it, not the disk. The disk itself (first repetition): busy %.1f %% of "
            + "%.3f s, mean queue depth %.2f, wrote %s while busy.", 100 * d.busyFraction(), d.elapsedNanos() / 1e9,
            d.meanQueueDepth(), gbps(d.writeBytesPerSecBusy())));
        if (r.fio() != null) {
            b.append(String.format(Locale.ROOT, " fio on the same file (sequential 1 MiB, depth 16, O_DIRECT): write "
                + "%s, read %s; like for like, the disk wrote at %.0f %% of fio's write bandwidth while busy (median"
                + " of the repetitions; the run writes at its own sizes and depth, fio at 1 MiB and 16).%n%n",
                gbps((double) r.fio().seqWriteBytesPerSec()), gbps((double) r.fio().seqReadBytesPerSec()),
                100 * r.diskWriteVsFio()));
        } else {
            b.append(" fio was not installed; no fio comparison.\n\n");
        }
        calibration(b, r);
        if (r.previous() != null) {
            b.append(String.format(Locale.ROOT,
                "Previous result [%s](../%s/%s): store bandwidth %s; change %+.1f %%.%n%n",
                r.previous().result(), r.previous().result(), Results.MARKDOWN, gbps(r.previous().storeBytesPerSec()),
                100 * r.previous().change()));
        } else {
            b.append("No earlier result for this scenario and host.\n\n");
        }
        for (final String p : plots) {
            b.append("![").append(p).append("](").append(p).append(")\n");
        }
        return b.toString();
    }

    /** The judged figures: median (min .. max) over the repetitions, real and simulated, deviation, band. */
    private static void figures(final StringBuilder b, final SignoffReport r) {
        b.append(String.format(Locale.ROOT, "Fidelity over %d repetition(s) (repetition i: seed %d + i, real and "
            + "simulated); median (min .. max):%n%n", r.repeats(), r.seed()));
        b.append("| figure | real | simulated | sim / real - 1 | band | verdict |\n|---|---|---|---|---|---|\n");
        for (final Fidelity.Figure f : r.figures()) {
            b.append("| ").append(f.name()).append(" (").append(f.unit()).append(") | ")
                .append(Fidelity.Figure.spread(f.real())).append(" | ").append(Fidelity.Figure.spread(f.sim()))
                .append(" | ").append(f.judged() ? String.format(Locale.ROOT, "%+.1f %%", 100 * f.deviation()) : "-")
                .append(String.format(Locale.ROOT, " | +-%.0f %% | ", 100 * f.band()))
                .append(!f.judged() ? "not judged" : f.inBand() ? "in band" : "**OUT**").append(" |\n");
        }
        b.append('\n');
        for (final CpuShare c : r.cpu()) {
            b.append("- real run ").append(c.describe()).append(c.busy() ? " -- **a busy machine**: the real figures"
                + " include time waiting for a CPU, which no profile models" : "").append('\n');
        }
        b.append('\n');
        if (!r.hostWork().isEmpty()) {
            b.append(
                "Host byte work on the real runs' loop thread, against the host profile the simulation charges:\n");
            for (final String line : r.hostWork()) {
                b.append("- ").append(line).append('\n');
            }
            b.append('\n');
        }
    }

    /** What the device calibration did and checked, and why its profile is suspect. */
    private static void calibration(final StringBuilder b, final SignoffReport r) {
        if (r.calibration().isEmpty() && r.suspect().isEmpty()) {
            return;
        }
        b.append("Device calibration:\n");
        for (final String note : r.calibration()) {
            b.append("- ").append(note).append('\n');
        }
        for (final String s : r.suspect()) {
            b.append("- **suspect**: ").append(s).append('\n');
        }
        b.append('\n');
    }

    private static void ttft(final StringBuilder b, final RunReport real, final RunReport sim) {
        for (final String phase : real.metrics().ttftNanos().keySet()) {
            final Percentiles s = sim.metrics().ttftNanos().get(phase);
            row(b, "TTFT " + phase + " mean", ms(real.metrics().ttftNanos().get(phase).mean()),
                s == null ? "-" : ms(s.mean()));
        }
    }

    private static void row(final StringBuilder b, final String name, final String real, final String sim) {
        b.append("| ").append(name).append(" | ").append(real).append(" | ").append(sim).append(" |\n");
    }

    private static String gbps(final double bytesPerSec) {
        return String.format(Locale.ROOT, "%.2f GB/s", bytesPerSec / 1e9);
    }

    private static String secs(final long nanos) {
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }

    private static String ms(final double nanos) {
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    private static String ms(final Percentiles p) {
        return String.format(Locale.ROOT, "%.1f / %.1f ms", p.p50() / 1e6, p.p99() / 1e6);
    }
}
