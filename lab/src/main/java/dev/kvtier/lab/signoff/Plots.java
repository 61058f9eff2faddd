package dev.kvtier.lab.signoff;

import dev.kvtier.realio.files.OutputFile;
import java.io.OutputStream;
import java.nio.file.Files;
import dev.kvtier.harness.metrics.RunMetrics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** The sign-off plots, drawn with XChart as PNG: throughput per phase, latency distributions, fidelity. */
public final class Plots {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 500;

    private Plots() {}

    /** Writes {@code throughput.png}, {@code latency.png} and {@code fidelity.png} into {@code folder}. */
    static List<Path> write(final SignoffReport r, final Path folder) throws IOException {
        System.setProperty("java.awt.headless", "true");
        final List<Path> out = new ArrayList<>();
        out.add(save(throughput(r), folder.resolve("throughput.png")));
        out.add(save(latency(r), folder.resolve("latency.png")));
        out.add(save(fidelity(r), folder.resolve("fidelity.png")));
        return out;
    }

    private static Path save(final org.knowm.xchart.internal.chartpart.Chart<?, ?> chart,
                             final Path png) throws IOException {
        OutputFile.write(png, temporary -> {
            try (OutputStream out = Files.newOutputStream(temporary)) {
                BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            }
        });
        return png;
    }

    /** GB/s per phase: bytes stored over the cold phase, bytes loaded over the warm phase; real and simulated. */
    private static CategoryChart throughput(final SignoffReport r) {
        final CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
            .title(r.scenario() + ": throughput per phase (" + r.host() + ", " + r.date() + ")")
            .xAxisTitle("phase").yAxisTitle("GB/s").build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        final List<String> phases = List.of("cold (store)", "warm (load)");
        c.addSeries("real", phases, List.of(gbps(r.real().metrics().storedBytes(),
            r.real().metrics().coldPhaseNanos()),
            gbps(r.real().metrics().loadedBytes(),
                r.real().metrics().warmPhaseNanos())));
        c.addSeries("simulated", phases, List.of(gbps(r.sim().metrics().storedBytes(),
            r.sim().metrics().coldPhaseNanos()),
            gbps(r.sim().metrics().loadedBytes(),
                r.sim().metrics().warmPhaseNanos())));
        if (r.fio() != null) {
            c.addSeries("fio sequential", phases, List.of(r.fio().seqWriteBytesPerSec() / 1e9,
                r.fio().seqReadBytesPerSec() / 1e9));
        }
        return c;
    }

    /** Latency at each percentile, ms: store acknowledgement and load, real and simulated. */
    private static XYChart latency(final SignoffReport r) {
        final XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT)
            .title(r.scenario() + ": latency distributions (store ack and load)")
            .xAxisTitle("percentile").yAxisTitle("ms").build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        add(c, "real store ack", r.real().metrics().storeAckNanos());
        add(c, "simulated store ack", r.sim().metrics().storeAckNanos());
        add(c, "real load", r.real().metrics().loadNanos());
        add(c, "simulated load", r.sim().metrics().loadNanos());
        return c;
    }

    private static void add(final XYChart c, final String name, final RunMetrics.Percentiles p) {
        final List<Double> ms = new ArrayList<>();
        for (final long v : p.distribution()) {
            ms.add(v / 1e6);
        }
        c.addSeries(name, RunMetrics.DISTRIBUTION_AT, ms);
    }

    /** Phase durations, real and simulated, s; the title gives fidelity (simulated / real). */
    private static CategoryChart fidelity(final SignoffReport r) {
        final StringBuilder title = new StringBuilder(r.scenario()).append(": simulated vs real per phase (fidelity");
        final List<String> names = new ArrayList<>();
        final List<Double> real = new ArrayList<>();
        final List<Double> sim = new ArrayList<>();
        for (final SignoffReport.PhaseFidelity p : r.phases()) {
            names.add(p.name());
            real.add(p.realNanos() / 1e9);
            sim.add(p.simNanos() / 1e9);
            title.append(String.format(" %s %.2f", p.name(), p.fidelity()));
        }
        final CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title + ")")
            .xAxisTitle("phase").yAxisTitle("seconds").build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        c.addSeries("real", names, real);
        c.addSeries("simulated", names, sim);
        return c;
    }

    private static double gbps(final long bytes, final long nanos) {
        return nanos == 0 ? 0 : bytes / (double) nanos;
    }
}
