package dev.kvtier.property.chain;

import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.FalsifiedSample;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * After a chain property fails: writes the journal of the shrunk chain (the harness of the last failing run, when
 * its steps are those of the shrunk sample jqwik reports) and prints the seed, the journal, the replay command and the
 * command that reruns the property. jqwik itself reports the shrunk chain (its steps) and the harness's footnote
 * says what each step did.
 */
public final class ChainFailureHook implements AroundPropertyHook {
    private static CoreHarness lastFailed;
    private static List<String> lastFailedSteps = List.of();

    /** A chain failed with these steps; during shrinking the last failing chain is the shrunk one. */
    static synchronized void failed(final CoreHarness harness, final List<String> steps) {
        if (lastFailed != null && lastFailed != harness) {
            lastFailed.forget();
        }
        lastFailed = harness;
        lastFailedSteps = List.copyOf(steps);
    }

    /** The harness of the last failing chain if its steps are {@code steps} (or none are known), else null. */
    private static synchronized CoreHarness takeFailed(final List<String> steps) {
        final CoreHarness h = steps.isEmpty() || lastFailedSteps.equals(steps) ? lastFailed : null;
        lastFailed = null;
        lastFailedSteps = List.of();
        return h;
    }

    /** The steps of the chain jqwik reports: the shrunk sample's, else the original sample's, else none. */
    private static List<String> reportedSteps(final PropertyExecutionResult result) {
        final FalsifiedSample sample = result.shrunkSample().map(FalsifiedSample.class::cast)
            .or(result::originalSample).orElse(null);
        if (sample == null) {
            return List.of();
        }
        for (final Object p : sample.parameters()) {
            if (p instanceof List<?> steps) {
                return steps.stream().map(String::valueOf).toList();
            }
        }
        return List.of();
    }

    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(final PropertyLifecycleContext context,
                                                  final PropertyExecutor property) {
        takeFailed(List.of());
        final PropertyExecutionResult result = property.execute();
        final CoreHarness harness = takeFailed(reportedSteps(result));
        if (result.status() != PropertyExecutionResult.Status.FAILED) {
            return result;
        }
        if (harness == null) {
            System.out.println("kvtier: the shrunk chain was not the last failing run; no journal written");
            return result;
        }
        final String seed = result.seed().orElse("unknown");
        final String method = context.targetMethod().getName();
        final String test = context.containerClass().getSimpleName() + "#" + method;
        final StringBuilder out = new StringBuilder("\n==== kvtier: failing chain of ").append(test).append('\n');
        out.append("seed: ").append(seed).append('\n');
        try {
            final Path dir = FailureJournal.write(harness, method, seed);
            out.append("journal of the shrunk chain: ").append(dir).append('\n');
            out.append("replay it:   ./kvtier replay ").append(dir).append('\n');
        } catch (final Exception e) {
            out.append("journal not written: ").append(e).append('\n');
        }
        out.append("rerun:       ./kvtier test -pl property-tests -Dtest=").append(test)
            .append("  (jqwik retries the failing seed first; or set @Property(seed = \"").append(seed)
            .append("\"))\n");
        context.reporter().publishValue("kvtier failing chain", out.toString());
        return result;
    }
}
