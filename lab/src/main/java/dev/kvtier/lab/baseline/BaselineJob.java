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

/**
 * The bundled scenarios' virtual-time figures (seed 1) against their committed baselines ({@code kvtier baseline}), or,
 * updating, rewritten as the new baselines. A figure outside its band exits 4 with the command that accepts it.
 */
public final class BaselineJob {
    private final List<String> scenarios;
    private final boolean update;
    private final Path dir;
    private final PrintStream out;
    private final PrintStream err;

    /** A check (or, with {@code update}, a rewrite) of {@code scenarios}' baselines in {@code dir}. */
    public BaselineJob(final List<String> scenarios, final boolean update, final Path dir, final PrintStream out,
                       final PrintStream err) {
        this.scenarios = List.copyOf(scenarios);
        this.update = update;
        this.dir = dir;
        this.out = out;
        this.err = err;
    }

    /** Runs it; the exit code. */
    public int run() {
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
}
