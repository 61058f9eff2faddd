package dev.kvtier.sim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.harness.run.RunReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One seed, one run: the same scenario and seed give the same event digest, in this JVM and in another. */
class DeterminismTest {

    @Test
    void shouldGiveTheSameDigestForTheSameSeedAndDifferentOnesAcrossSeeds() {
        final Set<String> digests = new HashSet<>();
        for (long seed = 1; seed <= 12; seed++) {
            final RunReport a = new SimRun(Specs.small(12, 4), Specs.MODEL, seed, List.of()).run();
            final RunReport b = new SimRun(Specs.small(12, 4), Specs.MODEL, seed, List.of()).run();
            assertEquals(a.eventDigest(), b.eventDigest(), "seed " + seed);
            assertEquals(a, b, "seed " + seed);
            assertTrue(a.ok(), a.violation());
            digests.add(a.eventDigest());
        }
        assertEquals(12, digests.size(), "different seeds give different runs");
    }

    @Test
    void shouldGiveTheSameDigestInAnotherJvm() throws IOException, InterruptedException {
        final String java = ProcessHandle.current().info().command().orElse("java");
        final Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
            DigestMain.class.getName(), "42").redirectErrorStream(false).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child JVM finished");
        assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(new SimRun(Specs.small(12, 4), Specs.MODEL, 42, List.of()).run().eventDigest(), out);
    }
}
