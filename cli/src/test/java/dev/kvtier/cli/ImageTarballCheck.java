package dev.kvtier.cli;

import dev.kvtier.lab.BuildInfo;
import dev.kvtier.lab.run.ReportJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kvtier.lab.explore.ShardSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The image tarball that {@code ./kvtier image} (the {@code image} profile) builds: an OCI layout whose entry point is
 * the CLI with the launcher's JVM flags, whose layers hold a Java runtime, its libraries and the CLI, and which runs
 * an exploration. Not a unit test (the name does not end in Test): only the profile's {@code image-check} execution
 * runs it, after the tarball is built. Running the image's files needs root (chroot); elsewhere that part is skipped.
 */
class ImageTarballCheck {
    private static final long RUN_TIMEOUT_SECONDS = 300;

    @TempDir(factory = TargetTempDir.class)
    Path dir;

    @Test
    void shouldBuildAnImageWhoseEntryPointIsTheCliWithTheLaunchersFlags() throws IOException, InterruptedException {
        final String tarball = System.getProperty("kvtier.image.tar");
        assumeTrue(tarball != null, "run by the image profile (./kvtier image), which builds the tarball");
        final Path layout = dir.resolve("layout");
        Files.createDirectories(layout);
        run(List.of("tar", "-xf", tarball, "-C", layout.toString()), 0);
        final JsonNode index = json(layout.resolve("index.json"));
        final JsonNode manifest = json(blob(layout, index.get("manifests").get(0).get("digest").asString()));
        final JsonNode config = json(blob(layout, manifest.get("config").get("digest").asString())).get("config");
        final List<String> entrypoint = strings(config.get("Entrypoint"));
        assertEquals("java", entrypoint.getFirst(), entrypoint.toString());
        assertEquals("dev.kvtier.cli.Main", entrypoint.getLast(), entrypoint.toString());
        for (final String flag : launcherFlags()) {
            assertTrue(entrypoint.contains(flag), "the launcher passes " + flag + ", the image not: " + entrypoint);
        }
        final List<String> env = strings(config.get("Env"));
        assertTrue(env.contains("PATH=/opt/java/bin:/usr/bin:/bin"), env.toString());

        final Path root = dir.resolve("root");
        Files.createDirectories(root);
        for (final JsonNode layer : manifest.get("layers")) {
            run(List.of("tar", "-xzf", blob(layout, layer.get("digest").asString()).toString(), "-C",
                root.toString()), 0);
        }
        assertTrue(Files.isExecutable(root.resolve("opt/java/bin/java")));
        assertTrue(Files.isRegularFile(root.resolve("app/classes/dev/kvtier/cli/Main.class")));
        try (var libs = Files.list(root.resolve("app/libs"))) {
            // The commit stamp (BuildInfo's build.properties) travels in the lab module's jar.
            assertTrue(libs.anyMatch(p -> p.getFileName().toString().startsWith("kvtier-lab-")));
        }
        runsAnExploration(root, entrypoint, env);
    }

    /** Runs the entry point in the image's files (chroot, own /proc): an exploration that writes a summary. */
    private void runsAnExploration(final Path root, final List<String> entrypoint,
                                   final List<String> env) throws IOException, InterruptedException {
        final Path chroot = Path.of("/usr/sbin/chroot");
        final Path unshare = Path.of("/usr/bin/unshare");
        assumeTrue(Files.isExecutable(chroot) && Files.isExecutable(unshare) && "root".equals(
            System.getProperty("user.name")), "running the image's files needs root, chroot and unshare");
        Files.createDirectories(root.resolve("proc"));
        Files.writeString(root.resolve("work/steady.toml"), ExploreScenarios.STEADY);
        final List<String> command = new ArrayList<>(List.of(unshare.toString(), "--mount", "--pid", "--fork",
            "--mount-proc=" + root.resolve("proc"), chroot.toString(), root.toString()));
        command.addAll(entrypoint);
        command.addAll(List.of("explore", "/work/steady.toml", "--seeds", "4", "--summary", "/work/out/"));
        final ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().clear();
        for (final String e : env) {
            pb.environment().put(e.substring(0, e.indexOf('=')), e.substring(e.indexOf('=') + 1));
        }
        final String out = run(pb, 0);
        final Path summary = root.resolve("work/out/steady-seeds-1-4-shard-0-of-1.json");
        assertTrue(Files.isRegularFile(summary), out);
        final ShardSummary s = ShardSummary.read(summary);
        assertEquals(4, s.seedsRun(), out);
        assertEquals(BuildInfo.commit(), s.code(), "the image's CLI names the commit it was built from");
    }

    /** The JVM flags on the launcher's {@code exec java} line, up to {@code KVTIER_JAVA_OPTS}. */
    private static List<String> launcherFlags() throws IOException {
        final String launcher = Files.readString(Path.of(System.getProperty("kvtier.launcher")));
        final int from = launcher.indexOf("exec \"$JAVA_HOME/bin/java\"");
        final int to = launcher.indexOf("${KVTIER_JAVA_OPTS", from);
        assertTrue(from > 0 && to > from, "the launcher's java line");
        final List<String> flags = new ArrayList<>(Arrays.asList(launcher.substring(from, to)
            .replace("exec \"$JAVA_HOME/bin/java\"", "").replace("\\\n", " ").trim().split("\\s+")));
        assertTrue(flags.size() >= 5 && flags.contains("-ea"), flags.toString());
        return flags;
    }

    private static Path blob(final Path layout, final String digest) {
        assertTrue(digest.startsWith("sha256:"), digest);
        return layout.resolve("blobs/sha256/" + digest.substring("sha256:".length()));
    }

    private static JsonNode json(final Path file) throws IOException {
        return ReportJson.mapper().readTree(Files.readString(file));
    }

    private static List<String> strings(final JsonNode array) {
        final List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }

    private static String run(final List<String> command, final int exitCode) throws IOException, InterruptedException {
        return run(new ProcessBuilder(command).redirectErrorStream(true), exitCode);
    }

    private static String run(final ProcessBuilder pb, final int exitCode) throws IOException, InterruptedException {
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS), pb.command() + " did not end");
        assertEquals(exitCode, p.exitValue(), pb.command() + ": " + out);
        return out;
    }
}
