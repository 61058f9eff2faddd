package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BuildInfoTest {
    /** The build runs in the checkout the tests run in: the stamped commit is its HEAD (unless git is absent). */
    @Test
    void shouldStampTheCommitTheBuildRanOn() throws IOException, InterruptedException {
        final String commit = BuildInfo.commit();
        assertTrue(commit.matches("[0-9a-f]{40}") || BuildInfo.UNKNOWN.equals(commit), commit);
        final Process git;
        try {
            git = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
        } catch (final IOException e) {
            assertEquals(BuildInfo.UNKNOWN, commit, "no git, yet a commit was stamped");
            return;
        }
        final String head = new String(git.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertTrue(git.waitFor(30, TimeUnit.SECONDS));
        assertEquals(git.exitValue() == 0 ? head : BuildInfo.UNKNOWN, commit);
    }
}
