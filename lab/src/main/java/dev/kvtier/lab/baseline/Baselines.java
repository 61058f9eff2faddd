package dev.kvtier.lab.baseline;

import dev.kvtier.lab.run.ReportJson;
import dev.kvtier.lab.run.Runs;
import dev.kvtier.harness.run.RunReport;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The committed baselines of the bundled scenarios, one JSON file each under {@code results/baselines/}. */
public final class Baselines {
    /** Where the baselines live, relative to the repository root. */
    public static final Path DIR = Path.of("results", "baselines");
    /** The seed every baseline runs. */
    public static final long SEED = 1;

    private Baselines() {}

    /** Runs {@code scenario} (a library name) at {@link #SEED} in virtual time and takes its figures. */
    public static Baseline measure(final String scenario) throws ScenarioException {
        return measure(scenario, SEED, List.of());
    }

    /** Runs {@code scenario} (a library name or a path) with {@code seed} and {@code sets}; takes its figures. */
    public static Baseline measure(final String scenario, final long seed,
                                   final List<String> sets) throws ScenarioException {
        final Scenario sc = ScenarioLoader.load(scenario, sets);
        final RunReport r = Runs.virtual(sc, seed);
        if (!r.ok()) {
            throw new IllegalStateException(scenario + " broke an invariant: " + r.violation());
        }
        return Baseline.of(scenario, seed, r);
    }

    /** The baseline in {@code file}, or null when there is none. */
    public static Baseline readFile(final Path file) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        return ReportJson.mapper().readValue(file.toFile(), Baseline.class);
    }

    /** Writes {@code b} to {@code file}, whole or not at all. */
    public static void writeFile(final Path file, final Baseline b) throws IOException {
        OutputFile.writeString(file, ReportJson.toJson(b) + "\n");
    }

    /** The committed baseline of {@code scenario} under {@code dir}, or null when there is none. */
    public static Baseline read(final Path dir, final String scenario) throws IOException {
        final Path file = file(dir, scenario);
        if (!Files.exists(file)) {
            return null;
        }
        return ReportJson.mapper().readValue(file.toFile(), Baseline.class);
    }

    /** Writes {@code b} under {@code dir}, whole or not at all ({@link OutputFile}: a temporary file, renamed). */
    public static Path write(final Path dir, final Baseline b) throws IOException {
        final Path file = file(dir, b.scenario());
        OutputFile.writeString(file, ReportJson.toJson(b) + "\n");
        return file;
    }

    private static Path file(final Path dir, final String scenario) {
        return dir.resolve(scenario + ".json");
    }
}
