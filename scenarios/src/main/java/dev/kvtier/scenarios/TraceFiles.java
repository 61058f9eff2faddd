package dev.kvtier.scenarios;

import dev.kvtier.harness.workload.Trace;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a trace file into a {@link Trace} (docs/design/TRAFFIC.md), two formats, told apart by the file's name:
 * <ul>
 * <li>{@code .jsonl}, the Mooncake traces': one JSON object a line, {@code {"timestamp": ms, "input_length": tokens,
 * "output_length": tokens, "hash_ids": [...]}}, with as many ids as the input has blocks of the trace's block size
 * (other fields are ignored);</li>
 * <li>{@code .csv}, Azure's LLM inference traces': the header {@code TIMESTAMP,ContextTokens,GeneratedTokens}, then
 * one request a line, its time as {@code yyyy-MM-dd HH:mm:ss.fffffff} (taken from the first request's); every request
 * gets ids of its own, so none shares a block.</li>
 * </ul>
 * Requests must be in arrival order. A window keeps the requests from {@code fromMs} (inclusive) to {@code toMs}
 * (exclusive) after the trace's start, at most the first {@code requests} of them; arrivals are then taken from
 * {@code fromMs} and divided by the time scale. Lines after the window are not read. Any bad line is a
 * {@link ScenarioException} of one line: {@code FILE:LINE: problem}. A name without a path separator or a dot is a
 * trace bundled in the jar ({@code scenarios/traces/}).
 */
final class TraceFiles {
    /** The bundled traces: excerpts of the public ones (scenarios/traces/README.md). */
    static final List<String> BUNDLED = List.of("mooncake-conversation-10min", "mooncake-synthetic-5min",
        "azure-code-10min", "azure-conv-10min");
    /** The largest trace file read. */
    static final long FILE_BYTES_MAX = 1L << 30;
    /** The most tokens of one request's input or output. */
    static final int TOKENS_MAX = 1 << 24;
    private static final String AZURE_HEADER = "TIMESTAMP,ContextTokens,GeneratedTokens";
    private static final Pattern AZURE_TIME = Pattern.compile(
        "(\\d{4})-(\\d{2})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private TraceFiles() {}

    /** Which requests to keep, and how to scale their arrivals. */
    record Window(int blockTokens, double timeScale, long fromMs, long toMs, int requests) {}

    /** A trace read: the window's requests, and the SHA-256 of the whole file (the run's input, like its seed). */
    record Read(Trace trace, String sha256) {}

    /** Reads {@code nameOrPath} (relative to {@code base}, or the working directory when null) for {@code key}. */
    static Read read(final String source, final String key, final String nameOrPath, final Path base,
                     final Window window) throws ScenarioException {
        final byte[] bytes;
        final String file;
        if (BUNDLED.contains(nameOrPath)) {
            file = "traces/" + nameOrPath + (nameOrPath.startsWith("azure") ? ".csv" : ".jsonl");
            bytes = bundled(file);
        } else {
            final Path p = base == null ? Path.of(nameOrPath) : base.resolve(nameOrPath);
            file = p.toString();
            if (!Files.isRegularFile(p)) {
                throw new ScenarioException(source + ": key '" + key + "': \"" + nameOrPath + "\" is neither a "
                    + "bundled trace (" + String.join(", ", BUNDLED) + ") nor a readable file");
            }
            bytes = fileBytes(file, p);
        }
        final String text = utf8(file, bytes);
        final Trace.Builder b = new Trace.Builder(nameOrPath, window.blockTokens());
        if (file.endsWith(".jsonl")) {
            new Parser(file, window, b).mooncake(text);
        } else if (file.endsWith(".csv")) {
            new Parser(file, window, b).azure(text);
        } else {
            throw new ScenarioException(source + ": key '" + key + "': \"" + nameOrPath + "\" must end in .jsonl (a "
                + "Mooncake trace) or .csv (an Azure trace)");
        }
        if (b.size() == 0) {
            throw new ScenarioException(file + ": no request in the window (workload.traceFromMs " + window.fromMs()
                + ", traceToMs " + (window.toMs() == Long.MAX_VALUE ? "none" : window.toMs()) + ")");
        }
        return new Read(b.build(), sha256(bytes));
    }

    private static byte[] bundled(final String file) throws ScenarioException {
        try (InputStream in = TraceFiles.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new ScenarioException(file + ": missing from the jar");
            }
            return in.readAllBytes();
        } catch (final IOException e) {
            throw new ScenarioException(file + ": cannot read: " + e.getMessage());
        }
    }

    private static byte[] fileBytes(final String file, final Path p) throws ScenarioException {
        try {
            if (Files.size(p) > FILE_BYTES_MAX) {
                throw new ScenarioException(file + ": " + Files.size(p) + " B is too large for a trace (at most "
                    + FILE_BYTES_MAX + " B)");
            }
            return Files.readAllBytes(p);
        } catch (final IOException e) {
            throw new ScenarioException(file + ": cannot read: " + e.getMessage());
        }
    }

    private static String utf8(final String file, final byte[] bytes) throws ScenarioException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (final CharacterCodingException e) {
            throw new ScenarioException(file + ": not UTF-8 text (a trace is JSON lines or CSV)");
        }
    }

    private static String sha256(final byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** One pass over a trace's lines into the builder, keeping the window. */
    private static final class Parser {
        private final String file;
        private final Window window;
        private final Trace.Builder out;
        private int line;
        private long previousNs = Long.MIN_VALUE;

        Parser(final String file, final Window window, final Trace.Builder out) {
            this.file = file;
            this.window = window;
            this.out = out;
        }

        void mooncake(final String text) throws ScenarioException {
            for (int at = 0; at < text.length() && !full();) {
                final int end = lineEnd(text, at);
                final String l = strip(text.substring(at, end));
                at = end + 1;
                line++;
                if (l.isBlank()) {
                    throw fail("an empty line (a Mooncake trace is one JSON object a line)");
                }
                final JsonNode n = json(l);
                final long ms = whole(n, "timestamp", 0, Long.MAX_VALUE / 1_000_000);
                final int input = (int) whole(n, "input_length", 1, TOKENS_MAX);
                final int output = (int) whole(n, "output_length", 1, TOKENS_MAX);
                final long[] ids = ids(n, input);
                if (!keep(ms * 1_000_000)) {
                    break;
                }
                add(ms * 1_000_000, input, output, ids);
            }
        }

        void azure(final String text) throws ScenarioException {
            long originNs = 0;
            for (int at = 0; at < text.length() && !full();) {
                final int end = lineEnd(text, at);
                final String l = strip(text.substring(at, end));
                at = end + 1;
                line++;
                if (line == 1) {
                    if (!l.equals(AZURE_HEADER)) {
                        throw fail("the header must be " + AZURE_HEADER + ", got " + quote(l));
                    }
                    continue;
                }
                final String[] f = l.split(",", -1);
                if (f.length != 3) {
                    throw fail("expected 3 comma-separated fields (TIMESTAMP,ContextTokens,GeneratedTokens), got "
                        + f.length + ": " + quote(l));
                }
                final long t = azureTime(f[0]);
                originNs = line == 2 ? t : originNs;
                final int input = (int) number("ContextTokens", f[1], 1, TOKENS_MAX);
                final int output = (int) number("GeneratedTokens", f[2], 1, TOKENS_MAX);
                final long[] ids = new long[(input + window.blockTokens() - 1) / window.blockTokens()];
                for (int b = 0; b < ids.length; b++) {
                    ids[b] = Trace.DISTINCT_IDS_FROM | ((long) (line - 2) << 24) | b;
                }
                if (!keep(t - originNs)) {
                    break;
                }
                add(t - originNs, input, output, ids);
            }
        }

        private boolean full() {
            return out.size() >= window.requests();
        }

        /** Checks the order; true to keep going (the window may not have started), false past the window's end. */
        private boolean keep(final long offsetNs) throws ScenarioException {
            if (offsetNs < previousNs) {
                throw fail(String.format(Locale.ROOT, "arrives at %.3f ms, before the request above it (%.3f ms): a "
                    + "trace must be in arrival order", offsetNs / 1e6, previousNs / 1e6));
            }
            previousNs = offsetNs;
            return offsetNs / 1_000_000.0 < window.toMs();
        }

        private void add(final long offsetNs, final int input, final int output, final long[] ids) {
            final long fromNs = window.fromMs() * 1_000_000;
            if (offsetNs >= fromNs) {
                out.add(Math.round((offsetNs - fromNs) / window.timeScale()), input, output, ids);
            }
        }

        private JsonNode json(final String l) throws ScenarioException {
            final JsonNode n;
            try {
                n = JSON.readTree(l);
            } catch (final JacksonException e) {
                throw fail("not JSON: " + firstLine(e.getOriginalMessage()));
            }
            if (n == null || !n.isObject()) {
                throw fail("not a JSON object: " + quote(l));
            }
            return n;
        }

        private long whole(final JsonNode n, final String field, final long min,
                           final long max) throws ScenarioException {
            final JsonNode v = n.get(field);
            if (v == null || v.isNull()) {
                throw fail("missing field '" + field + "'");
            }
            if (!v.isIntegralNumber() || !v.canConvertToLong()) {
                throw fail("'" + field + "' must be a whole number, got " + quote(v.toString()));
            }
            return inRange(field, v.longValue(), min, max);
        }

        private long[] ids(final JsonNode n, final int input) throws ScenarioException {
            final JsonNode v = n.get("hash_ids");
            if (v == null || v.isNull()) {
                throw fail("missing field 'hash_ids'");
            }
            if (!v.isArray()) {
                throw fail("'hash_ids' must be a list of whole numbers, got " + quote(v.toString()));
            }
            final int need = (input + window.blockTokens() - 1) / window.blockTokens();
            if (v.size() != need) {
                throw fail("'hash_ids' has " + v.size() + " ids, but input_length " + input + " is " + need
                    + " blocks of " + window.blockTokens() + " tokens (workload.traceBlockTokens)");
            }
            final long[] ids = new long[need];
            for (int i = 0; i < need; i++) {
                final JsonNode id = v.get(i);
                if (!id.isIntegralNumber() || !id.canConvertToLong()) {
                    throw fail("hash id " + i + " must be a whole number, got " + quote(id.toString()));
                }
                ids[i] = inRange("hash id " + i, id.longValue(), 0, Trace.DISTINCT_IDS_FROM - 1);
            }
            return ids;
        }

        private long azureTime(final String s) throws ScenarioException {
            final Matcher m = AZURE_TIME.matcher(s);
            if (!m.matches()) {
                throw fail("TIMESTAMP must be yyyy-MM-dd HH:mm:ss[.fraction], got " + quote(s));
            }
            try {
                final long day = LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3))).toEpochDay();
                final int h = Integer.parseInt(m.group(4));
                final int min = Integer.parseInt(m.group(5));
                final int sec = Integer.parseInt(m.group(6));
                if (h > 23 || min > 59 || sec > 59) {
                    throw fail("TIMESTAMP has no such time of day: " + quote(s));
                }
                final String frac = m.group(7) == null ? "" : m.group(7);
                final long nanos = frac.isEmpty() ? 0 : Long.parseLong((frac + "00000000").substring(0, 9));
                return ((day * 24 + h) * 60 + min) * 60_000_000_000L + sec * 1_000_000_000L + nanos;
            } catch (final DateTimeException e) {
                throw fail("TIMESTAMP has no such date: " + quote(s));
            }
        }

        private long number(final String field, final String s, final long min,
                            final long max) throws ScenarioException {
            if (!s.matches("-?\\d{1,18}")) {
                throw fail(field + " must be a whole number, got " + quote(s));
            }
            return inRange(field, Long.parseLong(s), min, max);
        }

        private long inRange(final String field, final long v, final long min,
                             final long max) throws ScenarioException {
            if (v < min || v > max) {
                throw fail((field.startsWith("hash") ? field : "'" + field + "'") + " must be in [" + min + ", "
                    + max + "], got " + v);
            }
            return v;
        }

        private ScenarioException fail(final String problem) {
            return new ScenarioException(file + ":" + line + ": " + problem);
        }

        private static int lineEnd(final String text, final int from) {
            final int nl = text.indexOf('\n', from);
            return nl < 0 ? text.length() : nl;
        }

        private static String strip(final String l) {
            return l.endsWith("\r") ? l.substring(0, l.length() - 1) : l;
        }

        private static String quote(final String s) {
            final String one = s.replaceAll("\\p{Cntrl}", "?");
            return "\"" + (one.length() > 60 ? one.substring(0, 60) + "..." : one) + "\"";
        }

        private static String firstLine(final String message) {
            final String m = message == null ? "unreadable" : message.lines().findFirst().orElse("unreadable");
            return m.length() > 100 ? m.substring(0, 100) + "..." : m;
        }
    }
}
