package dev.kvtier.journal.replay;

/**
 * Keeps dump lines readable in a replay report: an event with a long list (a lookup of 128 keys) is thousands of
 * characters, so a line is cut to {@link #LINE_CHARS_MAX}, and at a divergence it is shown around the first
 * character that differs.
 */
final class DumpLines {
    /** The longest line shown whole. */
    static final int LINE_CHARS_MAX = 320;
    /** Characters kept at the start of a cut line. */
    private static final int HEAD_CHARS = 120;
    /** Characters kept on each side of the first difference. */
    private static final int WINDOW_CHARS = 90;

    private DumpLines() {}

    /** {@code line}, cut to {@link #LINE_CHARS_MAX} with the number of characters left out. */
    static String cut(final String line) {
        if (line.length() <= LINE_CHARS_MAX) {
            return line;
        }
        return line.substring(0, LINE_CHARS_MAX) + " ...(" + (line.length() - LINE_CHARS_MAX) + " more chars)";
    }

    /** {@code line} with its start and the characters around index {@code at} (where it differs) kept. */
    static String around(final String line, final int at) {
        if (at < 0 || at > line.length()) {
            throw new IllegalArgumentException("index " + at + " outside a line of " + line.length() + " chars");
        }
        if (line.length() <= LINE_CHARS_MAX) {
            return line;
        }
        final int from = Math.max(HEAD_CHARS, at - WINDOW_CHARS);
        final int to = Math.min(line.length(), Math.max(from, at) + WINDOW_CHARS);
        final StringBuilder b = new StringBuilder(LINE_CHARS_MAX + 64).append(line, 0, Math.min(HEAD_CHARS, from));
        if (from > HEAD_CHARS) {
            b.append(" ...(").append(from - HEAD_CHARS).append(" chars)... ");
        }
        b.append(line, from, to);
        if (to < line.length()) {
            b.append(" ...(").append(line.length() - to).append(" more chars)");
        }
        return b.toString();
    }
}
