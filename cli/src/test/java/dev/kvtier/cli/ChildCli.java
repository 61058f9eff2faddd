package dev.kvtier.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The CLI in a child JVM (its own process, as a user's second {@code kvtier} is), its output lines collected as they
 * come: for tests of signals and of two runs at once.
 */
record ChildCli(Process process, List<String> lines) {
    /** The launcher's flags (so the JVM prints on standard error only what kvtier does), with a smaller heap. */
    static final List<String> JVM_FLAGS = List.of("-ea", "-Xmx1g", "-XX:+UseSerialGC",
        "--enable-native-access=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow", "-Dchronicle.analytics.disable=true");
    static final Duration LIMIT = Duration.ofMinutes(2);

    /** What a child that ran to its end said: its exit status, and its standard output and error apart. */
    record Ended(int exitCode, String out, String err) {}

    /** Starts {@code kvtier ARGS} in {@code dir}, standard error merged into the lines. */
    static ChildCli start(final List<String> args, final Path dir) throws IOException {
        final Process p = new ProcessBuilder(command(args)).directory(dir.toFile()).redirectErrorStream(true).start();
        final List<String> lines = new CopyOnWriteArrayList<>();
        Thread.ofPlatform().daemon().name("child-cli-output").start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                }
            } catch (final IOException e) {
                lines.add("READ-ERROR " + e);
            }
        });
        return new ChildCli(p, lines);
    }

    /** Runs {@code kvtier ARGS} in {@code dir} to its end (within {@link #LIMIT}), its output and error apart. */
    static Ended run(final List<String> args, final Path dir) throws IOException, InterruptedException {
        final Path out = Files.createTempFile(dir, "child-", ".out");
        final Path err = Files.createTempFile(dir, "child-", ".err");
        final Process p = new ProcessBuilder(command(args)).directory(dir.toFile()).redirectOutput(out.toFile())
            .redirectError(err.toFile()).start();
        if (!p.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            p.toHandle().destroyForcibly();
            throw new AssertionError("kvtier " + String.join(" ", args) + " did not end in " + LIMIT);
        }
        final Ended ended = new Ended(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        return ended;
    }

    private static List<String> command(final List<String> args) {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JVM_FLAGS);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        return cmd;
    }

    void awaitLine(final String part) {
        await().atMost(LIMIT).pollInterval(Duration.ofMillis(20)).until(() -> has(part) || !process.isAlive());
        assertTrue(process.isAlive(), () -> "the child ended before '" + part + "': " + describe());
    }

    void signal(final String name) throws IOException, InterruptedException {
        final Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
        assertEquals(0, kill.waitFor(), "kill -" + name);
    }

    /** Waits for the child to exit after a signal, and for its last line ("kvtier: interrupted ..."). */
    int exit() throws InterruptedException {
        assertTrue(process.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS), () -> "the child did not exit: "
            + describe());
        // The reader may still be draining the pipe: wait for its last line (the child has exited).
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
            .until(() -> lines.stream().anyMatch(l -> l.startsWith("kvtier: interrupted")) || lines.isEmpty());
        return process.exitValue();
    }

    boolean has(final String part) {
        return lines.stream().anyMatch(l -> l.contains(part));
    }

    String describe() {
        final int from = Math.max(0, lines.size() - 15);
        return "child output (last lines):\n" + String.join("\n", lines.subList(from, lines.size()));
    }
}
