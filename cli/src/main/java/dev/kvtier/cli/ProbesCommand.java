package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import dev.kvtier.harness.probe.Probe;
import dev.kvtier.harness.probe.ProbeCatalogue;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code kvtier probes}: the coverage-probe catalogue, one probe a line (name, where it is reached from, meaning), in
 * catalogue order: the names {@code [coverage] required} and {@code explore merge --require} take.
 */
@Command(name = "probes", mixinStandardHelpOptions = true,
    description = {"List the coverage probes: the rare paths a run reports and a scenario can require."})
public final class ProbesCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        for (final Probe p : ProbeCatalogue.all()) {
            System.out.printf("%-30s %-5s %s%n", p.name(), p.source() == Probe.Source.EVENT ? "event" : "sim",
                p.meaning());
        }
        System.out.println(ProbeCatalogue.all().size() + " probes (event: reached from the event stream in either "
            + "mode; sim: a fact only a virtual run reports)");
        return ExitCodes.OK;
    }
}
