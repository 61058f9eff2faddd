package dev.kvtier.cli;

import dev.kvtier.lab.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One case of the bad-input corpus ({@link BadInputCorpusTest}): what to put in a fresh directory, the command line
 * (with {@code {d}} standing for that directory), the exit code, and a word the one-line message must contain.
 *
 * @param name     what the case tries, for the report
 * @param setup    prepares the case's directory; what it returns (a lock held by "another run") is closed after it
 * @param args     the command line, {@code {d}} replaced by the case's directory
 * @param exitCode the exit code the command must return
 * @param mentions a word or phrase the message must contain (case-insensitive)
 */
record BadInput(String name, Setup setup, List<String> args, int exitCode, String mentions) {
    BadInput {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(setup, "setup");
        args = List.copyOf(args);
        Objects.requireNonNull(mentions, "mentions");
    }

    /** Prepares a case's directory. */
    @FunctionalInterface
    interface Setup {
        /** Puts what the case needs into {@code dir}; returns what to close after the run, or null. */
        AutoCloseable prepare(Path dir) throws Exception;

        /** Nothing but the tiny scenario at {@code {d}/s.toml}. */
        Setup SCENARIO = dir -> {
            Files.writeString(dir.resolve("s.toml"), TinyScenario.text("corpus", ""));
            return null;
        };

        /** The tiny scenario, then {@code more}. */
        static Setup and(final Setup more) {
            return dir -> {
                SCENARIO.prepare(dir);
                return more.prepare(dir);
            };
        }
    }

    /** A case refused as bad input (exit 2). */
    static BadInput refused(final String name, final Setup setup, final String mentions, final String... args) {
        return new BadInput(name, setup, Arrays.asList(args), ExitCodes.BAD_INPUT, mentions);
    }

    /** The arguments with {@code {d}} replaced by {@code dir}. */
    String[] argsIn(final Path dir) {
        final List<String> out = new ArrayList<>();
        for (final String a : args) {
            out.add(a.replace("{d}", dir.toString()));
        }
        return out.toArray(String[]::new);
    }
}
