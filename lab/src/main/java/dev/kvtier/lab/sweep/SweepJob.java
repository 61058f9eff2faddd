package dev.kvtier.lab.sweep;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.lab.Outputs;
import dev.kvtier.lab.results.ResultFolders;
import dev.kvtier.lab.results.ResultInfo;
import dev.kvtier.lab.results.ResultKind;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A sweep ({@code kvtier sweep}): a scenario against its {@code [gate]} baseline in virtual time at each point of one
 * or more keys varied together ({@link Sweep}), the metric's ratio at each point printed as a table and, with an
 * output prefix, written as Markdown, JSON and a plot ({@link SweepReport}); with a results root, the same files
 * ({@code sweep.md}, {@code sweep.json}, {@code sweep.png}) and the metadata ({@link ResultInfo}) go into a new folder
 * under its {@code sweeps/} ({@link ResultFolders}), and the root's index is rewritten if it has one.
 */
public final class SweepJob {
    private final String scenario;
    private final List<String> vary;
    private final String metric;
    private final long seed;
    private final List<String> sets;
    private final Path out;
    private final Path results;
    private final String why;
    private final PrintStream stdout;
    private final PrintStream stderr;

    /**
     * What to sweep.
     *
     * @param scenario a scenario with a {@code [gate]} table
     * @param vary     {@code KEY=V1,V2,...}, varied together
     * @param metric   the metric, or null for the gate's
     * @param seed     the root seed
     * @param sets     overrides for every run
     * @param out      the output prefix, or null
     * @param results  the results root (the sweep goes into a new folder under its {@code sweeps/}), or null
     * @param why      why this sweep is made, for its metadata, or null
     */
    public record Request(String scenario, List<String> vary, String metric, long seed, List<String> sets, Path out,
                          Path results, String why) {
        public Request {
            vary = List.copyOf(vary);
            sets = List.copyOf(sets);
        }
    }

    /** A sweep of {@code q}, printing on {@code stdout} and {@code stderr}. */
    public SweepJob(final Request q, final PrintStream stdout, final PrintStream stderr) {
        this.scenario = q.scenario();
        this.vary = q.vary();
        this.metric = q.metric();
        this.seed = q.seed();
        this.sets = q.sets();
        this.out = q.out();
        this.results = q.results();
        this.why = q.why();
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** Runs it; the exit code. */
    public int run() {
        final Instant at = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String bad = out == null ? null : badOut(out);
        if (bad == null && results != null && Files.exists(results) && !Files.isDirectory(results)) {
            bad = "--results " + results + " is a file; name a directory";
        }
        if (bad != null) {
            stderr.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        final Sweep.Axis axis;
        try {
            axis = axis(vary);
        } catch (final IllegalArgumentException e) {
            stderr.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final Sweep.Result r;
        final String name;
        try {
            final Scenario sc = ScenarioLoader.load(scenario, sets);
            name = sc.name();
            final Scenario.Gate gate = sc.gate();
            final String m = metric != null ? metric : gate != null ? gate.metric() : "coldPhaseNanos";
            r = Sweep.run(scenario, m, axis, seed, sets);
        } catch (final ScenarioException | IllegalArgumentException e) {
            stderr.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        } catch (final IllegalStateException e) {
            stderr.println("FAILED: " + e.getMessage());
            return ExitCodes.INVARIANT;
        }
        stdout.print(SweepReport.table(r));
        stdout.println("ratio " + (r.monotone() ? "rises monotonically" : "does NOT rise monotonically"));
        try {
            if (out != null) {
                for (final Path p : SweepReport.write(r, out, command())) {
                    stdout.println("wrote " + p);
                }
            }
            if (results != null) {
                result(r, name, at);
            }
        } catch (final IOException e) {
            stderr.println("kvtier: " + OutputFile.describe(out != null ? out : results, e));
            return ExitCodes.BAD_INPUT;
        }
        return ExitCodes.OK;
    }

    /** The sweep's files and metadata in a new folder under the results root, and the root's index. */
    private void result(final Sweep.Result r, final String name, final Instant at) throws IOException {
        ResultFolders.publish(results, ResultKind.SWEEP, name, Outputs.hostName(), at, r, why,
            folder -> SweepReport.write(r, folder.resolve(SweepReport.BASE), command()), stdout);
    }

    /** Null, or why the files of {@code --out PREFIX} cannot be written (a directory, the scenario, below a file). */
    private String badOut(final Path prefix) {
        final List<Path> inputs = List.of(Path.of(scenario));
        for (final String ext : List.of(".md", ".json", ".png")) {
            final String bad = OutputFile.check(Path.of(prefix + ext), "--out", inputs);
            if (bad != null) {
                return bad;
            }
        }
        return null;
    }

    private String command() {
        final StringBuilder b = new StringBuilder("./kvtier sweep ").append(scenario);
        for (final String v : vary) {
            b.append(" --vary ").append(v);
        }
        if (metric != null) {
            b.append(" --metric ").append(metric);
        }
        for (final String s : sets) {
            b.append(" --set ").append(s);
        }
        return b.append(" --seed ").append(seed).toString();
    }

    public static Sweep.Axis axis(final List<String> vary) {
        final List<String> keys = new ArrayList<>();
        final List<List<String>> values = new ArrayList<>();
        for (final String v : vary) {
            final int eq = v.indexOf('=');
            if (eq <= 0 || eq == v.length() - 1) {
                throw new IllegalArgumentException("--vary must be KEY=V1,V2,..., got '" + v + "'");
            }
            keys.add(v.substring(0, eq));
            values.add(Arrays.asList(v.substring(eq + 1).split(",", -1)));
        }
        return new Sweep.Axis(keys, values);
    }
}
