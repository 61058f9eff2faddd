package dev.kvtier.lab.fidelity;

import dev.kvtier.lab.signoff.CpuShare;
import dev.kvtier.lab.signoff.HostWork;
import dev.kvtier.lab.signoff.Fidelity;
import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.realio.calibrate.SideBySide;
import dev.kvtier.realio.files.OutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * A fidelity matrix's files in its result's folder: {@code fidelity.json} (the whole {@link Matrix.Report}),
 * {@code fidelity.md} (per scenario and figure the real and simulated medians and spreads and the deviation; per kind
 * of figure the MAPE, the mean signed error and the worst figure; the regression; the disk's own spread from the
 * calibration's fio rounds) and {@code ratios.png} (simulated / real per figure and scenario), each written whole or
 * not at all ({@link OutputFile}).
 */
public final class MatrixFiles {
    /** The report's file in a matrix's folder. */
    public static final String JSON = "fidelity.json";
    /** Its Markdown. */
    public static final String MARKDOWN = "fidelity.md";
    /** Its plot. */
    public static final String PLOT = "ratios.png";

    private MatrixFiles() {}

    /** Writes the three files into the result's {@code folder}; returns them. */
    public static List<Path> write(final Matrix.Report r, final Path folder) throws IOException {
        final Path json = folder.resolve(JSON);
        OutputFile.writeString(json, ReportJson.toJson(r) + "\n");
        final Path png = folder.resolve(PLOT);
        System.setProperty("java.awt.headless", "true");
        final CategoryChart chart = chart(r);
        OutputFile.write(png, temporary -> {
            try (OutputStream out = Files.newOutputStream(temporary)) {
                BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            }
        });
        final Path md = folder.resolve(MARKDOWN);
        OutputFile.writeString(md, markdown(r, png.getFileName().toString()));
        return List.of(json, md, png);
    }

    static String markdown(final Matrix.Report r, final String plot) {
        final StringBuilder b = new StringBuilder();
        b.append("# Fidelity matrix on ").append(r.host()).append(", ").append(r.date()).append("\n\n**Verdict: ")
            .append(r.judged().verdict(r.pass())).append("**\n");
        for (final String reason : r.reasons()) {
            b.append("- ").append(reason).append('\n');
        }
        judged(r.judged(), b);
        b.append(String.format(Locale.ROOT, "%nDevice `%s`; device profile `%s`, host profile `%s`; %d "
            + "repetition(s) of each scenario in each mode (seed %d + i); median (min .. max).%n%n", r.device(),
            r.deviceProfile().name(), r.hostProfile().name(), r.repeats(), r.seed()));
        for (final Matrix.Entry e : r.entries()) {
            b.append("- ").append(e.heldOut().label()).append(": `").append(e.heldOut().scenario()).append('`')
                .append(e.heldOut().sets().isEmpty() ? "" : " with `" + String.join(" ", e.heldOut().sets()) + "`")
                .append('\n');
        }
        b.append('\n');
        b.append("| kind | figures | MAPE | mean signed error | worst |\n|---|---|---|---|---|\n");
        for (final Matrix.KindError e : r.errors()) {
            b.append(String.format(Locale.ROOT, "| %s | %d | %.1f %% | %+.1f %% | %s |%n", e.kind(), e.figures(),
                100 * e.mape(), 100 * e.meanSigned(), e.worst()));
        }
        final List<String> inside = Matrix.insideRealRange(r.entries()).stream().map(i -> i.kind() + " " + i.inside()
            + " of " + i.figures()).toList();
        b.append("\nSimulated medians inside the real runs' own range (their min .. max: what the disk and the host "
            + "varied from one real repetition to the next): ").append(String.join(", ", inside)).append(".\n");
        if (r.regression() != null) {
            b.append(String.format(Locale.ROOT, "%nPer-slot / contiguous cold TTFT (mean): real %.3f, simulated "
                + "%.3f.%n", r.regression().real(), r.regression().sim()));
        }
        b.append("\n| scenario | figure | real | simulated | sim / real - 1 | inside real's range |\n");
        b.append("|---|---|---|---|---|---|\n");
        for (final Matrix.Entry e : r.entries()) {
            for (final Fidelity.Figure f : e.figures()) {
                b.append("| ").append(e.heldOut().label()).append(" | ").append(f.name()).append(" (")
                    .append(f.unit()).append(") | ").append(Fidelity.Figure.spread(f.real())).append(" | ")
                    .append(Fidelity.Figure.spread(f.sim())).append(" | ").append(f.judged() ? String.format(
                        Locale.ROOT, "%+.1f %%", 100 * f.deviation()) : "-")
                    .append(" | ").append(f.insideRealRange() ? "yes" : "no").append(" |\n");
            }
        }
        for (final Matrix.Entry e : r.entries()) {
            for (final CpuShare c : e.cpu()) {
                b.append("- ").append(e.heldOut().label()).append(" real run ").append(c.describe())
                    .append(c.busy() ? " -- **a busy machine**" : "").append('\n');
            }
        }
        final List<String> work = HostWork.lines(r.hostProfile(),
            r.entries().stream().flatMap(e -> e.work().stream()).toList(),
            r.entries().stream().flatMap(e -> e.loop().stream()).toList());
        if (!work.isEmpty()) {
            b.append("\nHost byte work on the real runs' loop thread (every real run of the matrix), against the host"
                + " profile the simulation charges:\n");
            for (final String line : work) {
                b.append("- ").append(line).append('\n');
            }
        }
        b.append("\nThe disk's own spread (the calibration's side-by-side rounds, fio and kvtier on the same file):\n");
        for (final SideBySide.Comparison c : r.diskSpread()) {
            b.append("- ").append(c.cell()).append(": fio ").append(c.fio().describe()).append(", kvtier ")
                .append(c.profile().describe()).append('\n');
        }
        for (final String note : r.calibration()) {
            b.append("- ").append(note).append('\n');
        }
        return b.append("\n![").append(plot).append("](").append(plot).append(")\n").toString();
    }

    /** Which matrix, its thresholds, the biases it did not fail on, the gate and the conditions. */
    private static void judged(final Matrix.Judged j, final StringBuilder b) {
        final Matrix.Thresholds t = j.thresholds();
        b.append(String.format(Locale.ROOT, "%n%s, judged on the %s thresholds: phase-time MAPE at most %.0f %%, "
            + "TTFT-mean MAPE at most %.0f %%%s, every phase time within %.0f %%, mean signed error of each kind within"
            + " +-%.0f %% (%s).%n", capital(j.matrix()), t.name(), 100 * t.phaseMape(), 100 * t.ttftMeanMape(),
            Double.isInfinite(t.ttftP99Mape()) ? "" : String.format(Locale.ROOT, ", TTFT-p99 MAPE at most %.0f %%",
                100 * t.ttftP99Mape()),
            100 * t.phaseWorst(), 100 * t.bias(), t.biasFails() ? "else it fails"
                : "else the verdict names the bias"));
        if (!t.biasFails()) {
            j.biases().forEach(x -> b.append("- ").append(x).append('\n'));
        }
        if (j.gate().isEmpty()) {
            b.append("\nAgainst the previous matrix on this host: no figure both predicted.\n");
        } else {
            b.append("\nAgainst the previous matrix on this host, on the figures both predicted:\n");
            j.gate().forEach(g -> b.append("- ").append(g.describe()).append('\n'));
        }
        if (j.conditions() != null) {
            b.append("\nConditions: ").append(j.conditions().describe()).append(".\n");
        }
    }

    private static String capital(final String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static CategoryChart chart(final Matrix.Report r) {
        final CategoryChart c = new CategoryChartBuilder().width(1200).height(600)
            .title("simulated / real, per figure and scenario (" + r.host() + ", " + r.date() + ")")
            .xAxisTitle("figure").yAxisTitle("simulated / real").build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        c.getStyler().setXAxisLabelRotation(45);
        // Every series over the same categories (XChart wants that): a figure a scenario lacks or does not judge is 0.
        final List<String> names = new ArrayList<>();
        for (final Matrix.Entry e : r.entries()) {
            for (final Fidelity.Figure f : e.figures()) {
                if (!names.contains(f.name())) {
                    names.add(f.name());
                }
            }
        }
        for (final Matrix.Entry e : r.entries()) {
            final List<Double> ratios = new ArrayList<>();
            for (final String name : names) {
                ratios.add(e.figures().stream().filter(f -> f.name().equals(name) && f.judged())
                    .mapToDouble(f -> 1 + f.deviation()).findFirst().orElse(0));
            }
            c.addSeries(e.heldOut().label(), names, ratios);
        }
        return c;
    }
}
