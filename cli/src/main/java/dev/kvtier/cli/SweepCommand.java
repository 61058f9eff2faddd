package dev.kvtier.cli;

import dev.kvtier.cli.sweep.Sweep;
import dev.kvtier.cli.sweep.SweepReport;
import dev.kvtier.realio.files.OutputFile;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvtier sweep SCENARIO --vary KEY=V1,V2,...}: the scenario against its gate baseline at each point. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
    description = "Run a scenario against its [gate] baseline in virtual time at each point of one or more keys "
        + "varied together, and report the metric's ratio at each point.")
public final class SweepCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCENARIO", description = "a scenario with a [gate] table (name or path)")
    String scenario;

    @Option(names = "--vary", required = true, paramLabel = "KEY=V1,V2,...",
        description = "a scenario key and its values, one per point; several --vary are varied together")
    List<String> vary = new ArrayList<>();

    @Option(names = "--metric", description = "coldPhaseNanos, warmPhaseNanos or ttft.PHASE.mean|p99 "
        + "(default: the gate's)")
    String metric;

    @Option(names = "--seed", description = "root seed (default 1)")
    long seed = 1;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "an override for every run")
    List<String> sets = new ArrayList<>();

    @Option(names = "--out", paramLabel = "PREFIX", description = "write PREFIX.md, PREFIX.json and PREFIX.png")
    Path out;

    @Override
    public Integer call() {
        final String bad = out == null ? null : badOut(out);
        if (bad != null) {
            System.err.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        final Sweep.Axis axis;
        try {
            axis = axis(vary);
        } catch (final IllegalArgumentException e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        final Sweep.Result r;
        try {
            final Scenario.Gate gate = ScenarioLoader.load(scenario, sets).gate();
            final String m = metric != null ? metric : gate != null ? gate.metric() : "coldPhaseNanos";
            r = Sweep.run(scenario, m, axis, seed, sets);
        } catch (final ScenarioException | IllegalArgumentException e) {
            System.err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        } catch (final IllegalStateException e) {
            System.err.println("FAILED: " + e.getMessage());
            return ExitCodes.INVARIANT;
        }
        System.out.print(SweepReport.table(r));
        System.out.println("ratio " + (r.monotone() ? "rises monotonically" : "does NOT rise monotonically"));
        if (out != null) {
            try {
                for (final Path p : SweepReport.write(r, out, command())) {
                    System.out.println("wrote " + p);
                }
            } catch (final IOException e) {
                System.err.println("kvtier: " + OutputFile.describe(out, e));
                return ExitCodes.BAD_INPUT;
            }
        }
        return ExitCodes.OK;
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

    static Sweep.Axis axis(final List<String> vary) {
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
