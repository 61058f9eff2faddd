package dev.kvtier.cli;

import dev.kvtier.cli.baseline.Baseline;
import dev.kvtier.cli.baseline.Baselines;
import dev.kvtier.scenarios.ScenarioException;
import dev.kvtier.scenarios.ScenarioLoader;
import java.io.IOException;
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
}
