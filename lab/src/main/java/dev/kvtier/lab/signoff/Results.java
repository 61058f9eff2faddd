package dev.kvtier.lab.signoff;

import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.lab.results.ResultFolders;
import dev.kvtier.lab.results.ResultKind;
import dev.kvtier.scenarios.Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Sign-off arithmetic and files: fidelity per phase, the newest earlier result for the same scenario and host (a
 * folder under the results root's {@code signoffs/}, {@link ResultFolders}), the verdict, and the JSON, Markdown and
 * PNG files in the result's folder.
 */
public final class Results {
    /** The report's file in a sign-off's folder. */
    public static final String JSON = "signoff.json";
    /** Its Markdown. */
    public static final String MARKDOWN = "signoff.md";

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

    /**
     * The newest earlier sign-off of {@code scenario} on {@code host} under the results root {@code root} (in its
     * {@code signoffs/} folder) before the new one started {@code at} in {@code folder}, compared with
     * {@code current}; null when there is none.
     */
    public static SignoffReport.Previous previous(final Path root, final String scenario, final String host,
                                                  final Instant at, final Path folder,
                                                  final double current) throws IOException {
        final Optional<ResultFolders.Result> p = ResultFolders.previous(root, ResultKind.SIGNOFF, scenario, host, at,
            folder);
        if (p.isEmpty()) {
            return null;
        }
        final JsonNode node = ReportJson.mapper().readTree(Files.readString(p.get().folder().resolve(JSON)));
        final double before = node.path("storeBytesPerSec").asDouble(0);
        return new SignoffReport.Previous(p.get().name(), before, before == 0 ? 0 : current / before - 1);
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
                previous.result(), 100 * t.maxDrop()));
        }
        out.addAll(Fidelity.outside(figures));
        for (final String s : suspect) {
            out.add("the calibrated device profile is suspect: " + s);
        }
        return out;
    }

    /**
     * Writes {@code signoff.json}, {@code signoff.md} and the plots into the result's {@code folder}; returns the
     * files written.
     */
    public static List<Path> write(final SignoffReport r, final Path folder) throws IOException {
        final List<Path> files = new ArrayList<>();
        final Path json = folder.resolve(JSON);
        OutputFile.writeString(json, ReportJson.toJson(r) + "\n");
        files.add(json);
        final List<Path> plots = Plots.write(r, folder);
        final Path md = folder.resolve(MARKDOWN);
        OutputFile.writeString(md, Markdown.of(r, plots.stream().map(p -> p.getFileName().toString()).toList()));
        files.add(md);
        files.addAll(plots);
        return files;
    }
}
