package dev.kvtier.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BuildInfoTest {
    /**
     * The CLI carries the commit the build was given ({@code kvtier.build.commit}, which Surefire passes to this JVM
     * too); the launcher gives it HEAD, so under the launcher the stamp is this checkout's HEAD.
     */
    @Test
    void shouldStampTheCommitTheBuildWasGiven() throws IOException, InterruptedException {
        final String given = System.getProperty("kvtier.build.commit", BuildInfo.UNKNOWN);
        final String commit = BuildInfo.commit();
        assertEquals(given.matches("[0-9a-f]{40}") ? given : BuildInfo.UNKNOWN, commit);
        if (commit.equals(BuildInfo.UNKNOWN)) {
            return;
        }
        final Process git = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
        final String head = new String(git.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertTrue(git.waitFor(30, TimeUnit.SECONDS));
        assertEquals(head, commit, "the launcher stamps HEAD");
    }
}
