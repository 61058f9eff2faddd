package dev.kvtier.lab.signoff;

import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.scenarios.Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * Sign-off arithmetic and files: fidelity per phase, the newest earlier result for the same scenario and host
 * (files are named {@code <date>-<scenario>-<host>.json}, so name order is date order), the verdict, and the JSON,
 * Markdown and PNG files under {@code results/}.
 */
public final class Results {
    private Results() {}

    /** Simulated over real duration of each phase the real run has. */
    public static List<SignoffReport.PhaseFidelity> fidelity(final RunReport real, final RunReport sim) {
        final List<SignoffReport.PhaseFidelity> out = new ArrayList<>();
        for (final RunReport.Phase p : real.phases()) {
            final long simNanos = sim.phases().stream().filter(s -> s.name().equals(p.name()))
                .mapToLong(RunReport.Phase::durationNanos).findFirst().orElse(0);
            out.add(new SignoffReport.PhaseFidelity(p.name(), p.durationNanos(), simNanos,
                p.durationNanos() == 0 ? 0 : (double) simNanos / p.durationNanos()));
        }
        return out;
    }

    /** Store bandwidth: bytes stored over the cold phase (0 when there is none). */
    public static double storeBytesPerSec(final RunReport r) {
        return r.metrics().coldPhaseNanos() == 0 ? 0 : r.metrics().storedBytes() * 1e9 / r.metrics().coldPhaseNanos();
    }

    /** The newest result for {@code scenario} on {@code host} in {@code dir} other than {@code exclude}, or null. */
    public static SignoffReport.Previous previous(final Path dir, final String scenario, final String host,
                                                  final String exclude, final double current) throws IOException {
        if (!Files.isDirectory(dir)) {
            return null;
        }
        final String suffix = "-" + scenario + "-" + host + ".json";
        final List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(suffix))
                .filter(p -> !p.getFileName().toString().equals(exclude)).sorted().toList();
        }
        if (files.isEmpty()) {
            return null;
        }
        final Path newest = files.getLast();
        final JsonNode node = ReportJson.mapper().readTree(Files.readString(newest));
        final double before = node.path("storeBytesPerSec").asDouble(0);
        return new SignoffReport.Previous(newest.getFileName().toString(), before,
            before == 0 ? 0 : current / before - 1);
    }

    /**
     * Why the sign-off fails; empty when it passes: an invariant broken in any run, the store bandwidth thresholds,
     * a figure outside its fidelity band, a suspect device profile.
     */
    public static List<String> reasons(final List<RunReport> real, final List<RunReport> sim, final double store,
                                       final SignoffReport.Previous previous, final Scenario.Signoff t,
                                       final List<Fidelity.Figure> figures, final List<String> suspect) {
        final List<String> out = new ArrayList<>();
        for (final RunReport r : real) {
            if (!r.ok()) {
                out.add("the real run of seed " + r.seed() + " broke an invariant: " + r.violation());
            }
        }
        for (final RunReport r : sim) {
            if (!r.ok()) {
                out.add("the simulated run of seed " + r.seed() + " broke an invariant: " + r.violation());
            }
        }
        if (t.minStoreBytesPerSec() > 0 && store < t.minStoreBytesPerSec()) {
            out.add(String.format("store bandwidth %.2f GB/s is below the scenario's minimum %.2f GB/s", store / 1e9,
                t.minStoreBytesPerSec() / 1e9));
        }
        if (previous != null && previous.change() < -t.maxDrop()) {
            out.add(String.format("store bandwidth dropped %.1f %% from %s (limit %.1f %%)", -100 * previous.change(),
                previous.file(), 100 * t.maxDrop()));
        }
        out.addAll(Fidelity.outside(figures));
        for (final String s : suspect) {
            out.add("the calibrated device profile is suspect: " + s);
        }
        return out;
    }

    /** Writes {@code base}.json, {@code base}.md and the plots into {@code dir}; returns the files written. */
    public static List<Path> write(final SignoffReport r, final Path dir, final String base) throws IOException {
        final List<Path> files = new ArrayList<>();
        final Path json = dir.resolve(base + ".json");
        OutputFile.writeString(json, ReportJson.toJson(r) + "\n");
        files.add(json);
        final List<Path> plots = Plots.write(r, dir, base);
        final Path md = dir.resolve(base + ".md");
        OutputFile.writeString(md, Markdown.of(r, plots.stream().map(p -> p.getFileName().toString()).toList()));
        files.add(md);
        files.addAll(plots);
        return files;
    }
}
