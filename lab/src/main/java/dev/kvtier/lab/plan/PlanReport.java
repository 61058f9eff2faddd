package dev.kvtier.lab.plan;

import dev.kvtier.realio.files.OutputFile;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * A plan's table (text and Markdown), its JSON, and two plots against the L2 size, one line an L1 size and policy:
 * the hit ratio (with the trace's ideal) and the drive writes per day. Each file is written whole or not at all.
 */
public final class PlanReport {
    /** The files' prefix in a plan's result folder: {@code plan.md}, {@code plan.json}, {@code hits.png}, ... */
    public static final String BASE = "plan";

    private PlanReport() {}

    /** The table, one line a cell. */
    public static String table(final PlanResult p) {
        final StringBuilder b = new StringBuilder();
        b.append("| L1 | L2 | admission | from L1 | from L2 | hit ratio | of ideal | TTFT p50 / p99 | end-to-end p50 /"
            + " p99 | L2 write mean / peak minute | L2 read mean / peak minute | drive writes a day |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (final PlanRow r : p.rows()) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %.1f %% | %.1f %% | %.1f %% | %s | %s / %s | %s / %s "
                + "| %s / %s | %s / %s | %.2f%s |%n", size(r.l1Bytes()), size(r.l2Bytes()), r.admission(),
                100 * r.fromL1(), 100 * r.fromL2(), 100 * r.hitRatio(), p.idealHitRatio() == null ? "-"
                    : String.format(Locale.ROOT, "%.0f %%", 100 * r.hitRatio() / p.idealHitRatio()),
                secs(r.ttftP50Ms()), secs(r.ttftP99Ms()), secs(r.endToEndP50Ms()), secs(r.endToEndP99Ms()),
                mbps(r.writeMeanBytesPerSec()), mbps(r.writePeakBytesPerSec()), mbps(r.readMeanBytesPerSec()),
                mbps(r.readPeakBytesPerSec()), r.driveWritesPerDay(), r.ok() ? "" : " (**invariant failed**)"));
        }
        return b.toString();
    }

    /** Writes {@code prefix.md}, {@code prefix.json}, {@code PARENT/hits.png} and {@code PARENT/wear.png}. */
    public static List<Path> write(final PlanResult p, final Path prefix) throws IOException {
        final List<Path> out = new ArrayList<>();
        final Path md = Path.of(prefix + ".md");
        OutputFile.writeString(md, markdown(p));
        out.add(md);
        final Path json = Path.of(prefix + ".json");
        p.write(json);
        out.add(json);
        final Path dir = prefix.toAbsolutePath().getParent();
        out.add(plot(p, dir.resolve(prefix.getFileName() + "-hits.png"), "hit ratio (%)", r -> 100 * r.hitRatio(),
            p.idealHitRatio() == null ? null : 100 * p.idealHitRatio()));
        out.add(plot(p, dir.resolve(prefix.getFileName() + "-wear.png"), "drive writes a day",
            PlanRow::driveWritesPerDay, null));
        return out;
    }

    static String markdown(final PlanResult p) {
        return "# Capacity plan: " + p.scenario() + onTrace(p) + "\n\n"
            + "Command (every shard): `" + p.command() + "`; code " + p.code() + ", seed " + p.seed() + ".\n\n"
            + "Sizes are the real model's: " + p.scale() + ". The simulated run keeps the scenario's shrunk KV, "
            + "so each size holds as many slots as the real model's would, and the simulated disk and host move bytes "
            + "slower by the same factor; bandwidths and drive writes are scaled back to real bytes.\n\n"
            + (p.idealHitRatio() == null ? "" : String.format(Locale.ROOT, "The trace's ideal hit ratio (an "
                + "unbounded cache, requests one at a time): **%.1f %%**.%n%n", 100 * p.idealHitRatio()))
            + String.format(Locale.ROOT, "Drive writes a day are at the trace's own rate (the run replays it at %s x "
                + "its rate), data and index writes, over %s.%n%n", p.timeScale(),
                p.driveBytes() == null
                    ? "a drive the size of the cell's L2" : "a drive of " + size(p.driveBytes()))
            + table(p) + "\nHit ratio: input tokens whose KV was loaded from L1 or L2, over all input tokens. Latencies"
            + " are of the phase with the most requests. Peak: the busiest one-minute window of the run (runs shorter "
            + "than a minute: the whole run).\n\n![hit ratio](" + BASE + "-hits.png)\n\n![drive writes a day](" + BASE
            + "-wear.png)\n";
    }

    private static Path plot(final PlanResult p, final Path png, final String y,
                             final ToDoubleFunction<PlanRow> value, final Double ideal) throws IOException {
        System.setProperty("java.awt.headless", "true");
        final XYChart c = new XYChartBuilder().width(900).height(520).title(p.scenario() + onTrace(p) + ": " + y)
            .xAxisTitle("L2 (GiB)").yAxisTitle(y).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        for (final String admission : p.admissions()) {
            for (final long l1 : p.l1()) {
                final List<Double> xs = new ArrayList<>();
                final List<Double> ys = new ArrayList<>();
                for (final PlanRow r : p.rows()) {
                    if (r.l1Bytes() == l1 && r.admission().equals(admission)) {
                        xs.add(r.l2Bytes() / (double) (1L << 30));
                        ys.add(value.applyAsDouble(r));
                    }
                }
                if (!xs.isEmpty()) {
                    c.addSeries("L1 " + size(l1) + (p.admissions().size() > 1 ? ", " + admission : ""), xs, ys);
                }
            }
        }
        if (ideal != null && !p.l2().isEmpty()) {
            final List<Double> xs = p.l2().stream().map(b -> b / (double) (1L << 30)).sorted().toList();
            c.addSeries("ideal", List.of(xs.getFirst(), xs.getLast()), List.of(ideal, ideal));
        }
        OutputFile.write(png, temporary -> {
            try (OutputStream o = Files.newOutputStream(temporary)) {
                BitmapEncoder.saveBitmap(c, o, BitmapEncoder.BitmapFormat.PNG);
            }
        });
        return png;
    }

    /** {@code " on FILE"} when the plan's overrides replay another trace ({@code workload.trace=PATH}), else "". */
    private static String onTrace(final PlanResult p) {
        final String key = "workload.trace=";
        return p.sets().stream().filter(x -> x.startsWith(key))
            .map(x -> " on " + Path.of(x.substring(key.length())).getFileName()).findFirst().orElse("");
    }

    static String size(final long bytes) {
        if (bytes >= 1L << 40 && bytes % (1L << 40) == 0) {
            return (bytes >> 40) + " TiB";
        }
        final boolean gib = bytes >= 1L << 30;
        final BigDecimal v = BigDecimal.valueOf(bytes).divide(BigDecimal.valueOf(gib ? 1L << 30 : 1L << 20),
            new MathContext(4)).stripTrailingZeros();
        return v.toPlainString() + (gib ? " GiB" : " MiB");
    }

    private static String secs(final double ms) {
        return ms >= 1000 ? String.format(Locale.ROOT, "%.2f s", ms / 1000) : String.format(Locale.ROOT, "%.0f ms",
            ms);
    }

    private static String mbps(final double bytesPerSec) {
        return String.format(Locale.ROOT, "%.1f MB/s", bytesPerSec / 1e6);
    }
}
