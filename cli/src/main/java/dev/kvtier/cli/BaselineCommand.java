package dev.kvtier.cli;

import dev.kvtier.cli.baseline.Baseline;
import dev.kvtier.cli.baseline.Baselines;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvtier baseline [--update] [SCENARIO...]}: the bundled scenarios against their committed baselines. */
@Command(name = "baseline", mixinStandardHelpOptions = true,
    description = "Compare the bundled scenarios' virtual-time figures (seed 1) with the baselines committed under "
        + "results/baselines, or rewrite them with --update.")
public final class BaselineCommand implements Callable<Integer> {
    @Parameters(paramLabel = "SCENARIO", arity = "0..*", description = "library scenarios (default: all)")
    List<String> scenarios = new ArrayList<>();

    @Option(names = "--update", description = "write the current figures as the new baselines")
    boolean update;

    @Option(names = "--dir", paramLabel = "DIR", description = "the baselines' directory (default results/baselines)")
    Path dir = Baselines.DIR;

    @Override
    public Integer call() {
        final List<String> names = scenarios.isEmpty() ? ScenarioLoader.LIBRARY : scenarios;
        final String bad = bad(names);
        if (bad != null) {
            System.err.println("kvtier: " + bad);
            return ExitCodes.BAD_INPUT;
        }
        final List<String> problems = new ArrayList<>();
        for (final String name : names) {
            try {
                final Baseline now = Baselines.measure(name);
                if (update) {
                    System.out.println("wrote " + Baselines.write(dir, now));
                    continue;
                }
                final Baseline was = Baselines.read(dir, name);
                if (was == null) {
                    problems.add(name + ": no baseline in " + dir + " (write one: " + Baseline.UPDATE_COMMAND + ")");
                    continue;
                }
                final List<String> d = was.differences(now);
                System.out.println(name + ": " + (d.isEmpty() ? "every figure within its band"
                    : d.size() + " figures outside their band"));
                problems.addAll(d);
            } catch (final ScenarioException e) {
                System.err.println("kvtier: " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            } catch (final IOException e) {
                System.err.println("kvtier: " + dir + ": " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            } catch (final IllegalStateException e) {
                System.err.println("FAILED: " + e.getMessage());
                return ExitCodes.INVARIANT;
            }
        }
        problems.forEach(System.out::println);
        if (!problems.isEmpty()) {
            System.out.println("if the change is intended: " + Baseline.UPDATE_COMMAND
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
