package dev.kvtier.scenarios;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * "Did you mean" for a mistyped name (a key, a table, a library scenario, a preset): the candidates closest to it,
 * as picocli suggests for a mistyped command. Close means an edit distance (optimal string alignment: insertions,
 * deletions, substitutions and swaps of two neighbours, ignoring case) of at most 1 for a name of 3 to 5
 * characters and 2 for a longer one, the nearest first (a difference of case alone is nearest; a tie in the
 * candidates' order); else the candidates it is the start of (4 characters or more). At most three are named.
 */
final class DidYouMean {
    /** The most candidates a hint names. */
    private static final int MAX_NAMED = 3;
    /** The most files of a directory looked at for a mistyped scenario file. */
    private static final int MAX_FILES = 1000;

    private DidYouMean() {}

    /** {@code "; did you mean 'x'?"} (each candidate written as {@code show} gives it), or "" when none is close. */
    static String hint(final String given, final Collection<String> candidates, final UnaryOperator<String> show) {
        final List<String> close = closest(given, candidates);
        if (close.isEmpty()) {
            return "";
        }
        final List<String> shown = new ArrayList<>();
        for (final String c : close) {
            shown.add("'" + show.apply(c) + "'");
        }
        return "; did you mean " + String.join(" or ", shown) + "?";
    }

    /** The candidates closest to {@code given}, nearest first (at most three); empty when none is close. */
    static List<String> closest(final String given, final Collection<String> candidates) {
        final String g = given.toLowerCase(Locale.ROOT);
        final int limit = g.length() <= 2 ? 0 : g.length() <= 5 ? 1 : 2;
        final List<String> out = new ArrayList<>();
        for (int d = 0; d <= limit && out.isEmpty(); d++) {
            for (final String c : candidates) {
                if (distance(g, c.toLowerCase(Locale.ROOT)) == d && out.size() < MAX_NAMED) {
                    out.add(c);
                }
            }
        }
        if (out.isEmpty() && g.length() >= 4) {
            for (final String c : candidates) {
                if (c.toLowerCase(Locale.ROOT).startsWith(g) && out.size() < MAX_NAMED) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    /**
     * A scenario that is neither a library name nor a file ({@code nameOrPath}): the library names and the
     * {@code .toml} files beside where it points (as the user would type them) close to it; or, for a name ending
     * in {@code .toml}, the library names close to it without the extension.
     */
    static String scenario(final String nameOrPath, final List<String> library) {
        final List<String> files = new ArrayList<>();
        final Path dir = Path.of(nameOrPath).getParent();
        try (DirectoryStream<Path> listing = Files.newDirectoryStream(dir == null ? Path.of(".") : dir, "*.toml")) {
            for (final Path f : listing) {
                if (files.size() >= MAX_FILES) {
                    break;
                }
                files.add(dir == null ? f.getFileName().toString() : dir.resolve(f.getFileName()).toString());
            }
        } catch (final IOException | SecurityException e) {
            // no directory to look in: the library names alone
        }
        final List<String> candidates = new ArrayList<>(library);
        candidates.addAll(files.stream().sorted().toList());
        final String hint = hint(nameOrPath, candidates, c -> c);
        return !hint.isEmpty() || !nameOrPath.endsWith(".toml") ? hint
            : hint(nameOrPath.substring(0, nameOrPath.length() - ".toml".length()), library, c -> c);
    }

    /** The optimal string alignment distance of {@code a} and {@code b}. */
    static int distance(final String a, final String b) {
        final int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            for (int j = 0; j <= b.length(); j++) {
                if (i == 0 || j == 0) {
                    d[i][j] = i + j;
                    continue;
                }
                final int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
