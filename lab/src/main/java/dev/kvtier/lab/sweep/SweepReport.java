package dev.kvtier.lab.sweep;

import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.realio.files.OutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * A sweep's table (text and Markdown), its JSON, and a plot of the ratio against the first varied key; each file is
 * written whole or not at all ({@link OutputFile}).
 */
public final class SweepReport {
    /** The files' prefix in a sweep's result folder: {@code sweep.md}, {@code sweep.json}, {@code sweep.png}. */
    public static final String BASE = "sweep";

    private SweepReport() {}

    /** The table, one line a point. */
    public static String table(final Sweep.Result r) {
        final StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "| %s | %s %s | %s %s | ratio |%n", "point", r.baseline(), r.metric(),
            r.candidate(), r.metric()));
        b.append("|---|---|---|---|\n");
        for (final Sweep.Point p : r.points()) {
            b.append(String.format(Locale.ROOT, "| %s | %.1f ms | %.1f ms | %.3f |%n", String.join(", ", p.sets()),
                p.baseline() / 1e6, p.candidate() / 1e6, p.ratio()));
        }
        return b.toString();
    }

    /** Writes {@code prefix.md}, {@code prefix.json} and {@code prefix.png}; returns the files written. */
    public static List<Path> write(final Sweep.Result r, final Path prefix, final String command) throws IOException {
        final List<Path> out = new ArrayList<>();
        final Path md = Path.of(prefix + ".md");
        OutputFile.writeString(md, "# Sweep: " + r.candidate() + " against " + r.baseline() + "\n\n"
            + "Metric `" + r.metric() + "`, virtual time, seed " + r.seed() + ". Command:\n\n```sh\n" + command
            + "\n```\n\n" + table(r) + "\nThe ratio " + (r.monotone() ? "rises" : "does NOT rise")
            + " monotonically over the sweep.\n");
        out.add(md);
        final Path json = Path.of(prefix + ".json");
        OutputFile.writeString(json, ReportJson.toJson(r) + "\n");
        out.add(json);
        System.setProperty("java.awt.headless", "true");
        final XYChart c = new XYChartBuilder().width(900).height(500)
            .title(r.candidate() + " / " + r.baseline() + ": " + r.metric())
            .xAxisTitle(r.points().getFirst().sets().getFirst().replaceAll("=.*", "")).yAxisTitle("ratio").build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        final List<Double> x = new ArrayList<>();
        final List<Double> y = new ArrayList<>();
        for (final Sweep.Point p : r.points()) {
            x.add(Double.parseDouble(p.sets().getFirst().replaceAll(".*=", "")));
            y.add(p.ratio());
        }
        c.addSeries("ratio", x, y);
        final Path png = Path.of(prefix + ".png");
        OutputFile.write(png, temporary -> {
            try (OutputStream o = Files.newOutputStream(temporary)) {
                BitmapEncoder.saveBitmap(c, o, BitmapEncoder.BitmapFormat.PNG);
            }
        });
        out.add(png);
        return out;
    }
}
