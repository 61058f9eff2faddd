package dev.kvtier.scenarios;

import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

/**
 * A TOML syntax error as one line that points at the input: {@code FILE:LINE:COLUMN: not valid TOML at key 'KEY':
 * PROBLEM}. The parser gives the line and column; the key is read from the text: the table header above the line
 * and the name before the line's {@code =}.
 */
final class TomlErrors {
    private TomlErrors() {}

    static String describe(final String source, final String text, final JacksonException e) {
        final TokenStreamLocation at = e.getLocation();
        final String problem = oneLine(e.getOriginalMessage());
        if (at == null || at.getLineNr() < 1) {
            return source + ": not valid TOML: " + problem;
        }
        final int line = at.getLineNr();
        final String key = keyAt(text, line);
        return source + ":" + line + ":" + Math.max(1, at.getColumnNr()) + ": not valid TOML" + (key == null ? ""
            : " at key '" + key + "'") + ": " + problem;
    }

    /** The key the 1-based {@code line} sets, with its table ({@code model.kvHeads}), or null when it names none. */
    static String keyAt(final String text, final int line) {
        final String[] lines = text.split("\r?\n", -1);
        if (line > lines.length) {
            return null;
        }
        String table = null;
        for (int i = line - 2; i >= 0 && table == null; i--) {
            table = header(lines[i]);
        }
        final String here = lines[line - 1].strip();
        final String own = header(here);
        if (own != null) {
            return own;
        }
        final int eq = here.indexOf('=');
        if (eq <= 0) {
            return table;
        }
        final String name = here.substring(0, eq).strip().replace("\"", "");
        return table == null ? name : table + "." + name;
    }

    private static String header(final String line) {
        final String s = line.strip();
        if (s.startsWith("[[") && s.contains("]]")) {
            return s.substring(2, s.indexOf("]]")).strip();
        }
        if (s.startsWith("[") && s.indexOf(']') > 1 && !s.contains("=")) {
            return s.substring(1, s.indexOf(']')).strip();
        }
        return null;
    }

    private static String oneLine(final String message) {
        final String m = message == null ? "" : message.strip();
        final int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
