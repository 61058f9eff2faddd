package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kvtier.lab.explore.Explorer;
import dev.kvtier.lab.explore.Shard;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one test of the swarm-only mutation run (cli's {@code swarm-mutation} profile): an exploration of the bundled
 * swarm, nothing else, so what PIT reports is what the swarm alone kills. Its name matches none of Surefire's patterns
 * ({@code *Test}, {@code *Tests}, {@code *Properties}): it is not part of the default test run.
 *
 * <p>
 * {@code -Dkvtier.swarm.scenarios=a,b} picks the scenarios (default {@code rare-paths}) and
 * {@code -Dkvtier.swarm.seeds=N} the seeds of each (default 100, from seed 1). A mutant is killed when a seed breaks
 * an invariant or crashes (an assertion inside the core counts: the swarm runs with {@code -ea}, as {@code kvtier
 * explore} does).
 */
class SwarmOnlyMutationRun {

    @Test
    void shouldExploreTheBundledSwarmWithoutAFailingSeed(@TempDir(factory = TargetTempDir.class) final Path journals) {
        final long seeds = Long.getLong("kvtier.swarm.seeds", 100);
        final PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        for (final String scenario : List
            .of(System.getProperty("kvtier.swarm.scenarios", "rare-paths").split(",", -1))) {
            final Explorer.Result r = new Explorer(scenario.strip(), List.of(), quiet, quiet)
                .explore(Explorer.seeds(1, seeds, Shard.ALL), new Explorer.Options(journals, false, false, 1_000_000));
            assertEquals(ExitCodes.OK, r.exitCode(),
                scenario + " seed " + r.failingSeed() + " failed (" + r.exitCode() + "): " + r.failure());
        }
    }
}
