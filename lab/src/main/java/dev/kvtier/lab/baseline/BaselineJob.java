package dev.kvtier.lab.baseline;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The bundled scenarios' virtual-time figures (seed 1) against their committed baselines ({@code kvtier baseline}), or,
 * updating, rewritten as the new baselines. A figure outside its band exits 4 with the command that accepts it.
 */
public final class BaselineJob {
    private final List<String> scenarios;
    private final boolean update;
    private final Path dir;
    private final OwnFile own;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * A baseline of one scenario in a file of the user's ({@code --file}), and how to record it.
     *
     * @param file  the baseline file
     * @param seed  the seed it records (null: 1); a check takes the file's
     * @param sets  the overrides it records; a check takes the file's
     * @param only  the figure patterns it keeps (empty: all)
     * @param bands its own bands, pattern to relative band
     */
    public record OwnFile(Path file, Long seed, List<String> sets, List<String> only, Map<String, Double> bands) {
        public OwnFile {
            sets = List.copyOf(sets);
            only = List.copyOf(only);
            bands = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(bands));
        }

        /** True when a recording option was given (a check takes them from the file). */
        boolean recordingOptions() {
            return seed != null || !sets.isEmpty() || !only.isEmpty() || !bands.isEmpty();
        }
    }

    /** A check (or, with {@code update}, a rewrite) of {@code scenarios}' baselines in {@code dir}. */
    public BaselineJob(final List<String> scenarios, final boolean update, final Path dir, final PrintStream out,
                       final PrintStream err) {
        this(scenarios, update, dir, null, out, err);
    }

    /** As above, or, with {@code own}, the one scenario's baseline in the user's file. */
    public BaselineJob(final List<String> scenarios, final boolean update, final Path dir, final OwnFile own,
                       final PrintStream out, final PrintStream err) {
        this.scenarios = List.copyOf(scenarios);
        this.update = update;
        this.dir = dir;
        this.own = own;
        this.out = out;
        this.err = err;
    }

    /** Runs it; the exit code. */
    public int run() {
        if (own != null) {
            return runOwn();
        }
        final List<String> names = scenarios.isEmpty() ? ScenarioLoader.LIBRARY : scenarios;
        final String bad = bad(names);
        if (bad != null) {
            err.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        final List<String> problems = new ArrayList<>();
        for (final String name : names) {
            try {
                final Baseline now = Baselines.measure(name);
                if (update) {
                    out.println("wrote " + Baselines.write(dir, now));
                    continue;
                }
                final Baseline was = Baselines.read(dir, name);
                if (was == null) {
                    problems.add(name + ": no baseline in " + dir + " (write one: " + Baseline.UPDATE_COMMAND + ")");
                    continue;
                }
                final List<String> d = was.differences(now);
                out.println(name + ": " + (d.isEmpty() ? "every figure within its band"
                    : d.size() + " figures outside their band"));
                problems.addAll(d);
            } catch (final ScenarioException e) {
                err.println("kvtier: " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            } catch (final IOException e) {
                err.println("kvtier: " + dir + ": " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            } catch (final IllegalStateException e) {
                err.println("FAILED: " + e.getMessage());
                return ExitCodes.INVARIANT;
            }
        }
        problems.forEach(out::println);
        if (!problems.isEmpty()) {
            out.println("if the change is intended: " + Baseline.UPDATE_COMMAND
                + ", and commit results/baselines with the reason");
            return ExitCodes.GATE;
        }
        return ExitCodes.OK;
    }

    /**
     * Null, or why the command cannot run: a name that is not a library scenario (a baseline's file is named after
     * it, so a path would put it outside {@code --dir}), or a {@code --dir} that is not a directory.
     */
    private String bad(final List<String> names) {
        for (final String name : names) {
            if (!ScenarioLoader.LIBRARY.contains(name)) {
                return "baseline takes library scenarios (" + String.join(", ", ScenarioLoader.LIBRARY) + "), not \""
                    + name.replace('\n', ' ') + "\"";
            }
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            return "--dir " + dir + " is not a directory";
        }
        return null;
    }

    /**
     * One scenario (a library name or a path) against the baseline in the user's file, or, with {@code update}, its
     * figures recorded there with the seed, overrides, kept figures and bands to judge them by. A check runs the
     * scenario as the file says and exits 4 naming every figure out of its band.
     */
    private int runOwn() {
        if (scenarios.size() != 1) {
            err.println("kvtier: --file takes exactly one SCENARIO, got " + scenarios.size());
            return ExitCodes.BAD_INPUT;
        }
        if (!update && own.recordingOptions()) {
            err.println("kvtier: --seed, --set, --figures and --band are recorded with --update; a check takes them "
                + "from " + own.file());
            return ExitCodes.BAD_INPUT;
        }
        final String scenario = scenarios.getFirst();
        try {
            if (update) {
                final Baseline b = Baselines.measure(scenario, own.seed() == null ? Baselines.SEED : own.seed(),
                    own.sets()).judgedBy(own.sets(), own.only(), own.bands());
                if (b.figures().isEmpty()) {
                    err.println("kvtier: --figures " + own.only() + " keeps no figure of " + scenario);
                    return ExitCodes.BAD_INPUT;
                }
                Baselines.writeFile(own.file(), b);
                out.println("wrote " + own.file() + " (" + b.figures().size() + " figures of " + scenario + ", seed "
                    + b.seed() + ")");
                return ExitCodes.OK;
            }
            final Baseline was = Baselines.readFile(own.file());
            if (was == null) {
                err.println("kvtier: no baseline in " + own.file() + " (record one: ./kvtier baseline " + scenario
                    + " --file " + own.file() + " --update)");
                return ExitCodes.BAD_INPUT;
            }
            final Baseline now = Baselines.measure(scenario, was.seed(), was.sets());
            final List<String> d = was.differences(now);
            out.println(scenario + " against " + own.file() + ": " + (d.isEmpty()
                ? "every figure within its band (" + was.figures().size() + " figures)"
                : d.size() + " of " + was.figures().size() + " figures outside their band"));
            d.forEach(out::println);
            return d.isEmpty() ? ExitCodes.OK : ExitCodes.GATE;
        } catch (final ScenarioException e) {
            err.println("kvtier: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        } catch (final IOException | RuntimeException e) {
            if (e instanceof IllegalStateException s) {
                err.println("FAILED: " + s.getMessage());
                return ExitCodes.INVARIANT;
            }
            err.println("kvtier: " + own.file() + ": " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
    }
}
