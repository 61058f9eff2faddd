package dev.kvtier.realio.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;

/**
 * Who holds a file: the process, its host, the kvtier command it runs, and since when. Written into the header of a
 * file a run claims (and into a journal's lock file), so a second run refused at once can say who is in the way.
 *
 * @param pid     the holder's process id
 * @param host    its host name
 * @param command the kvtier command line it runs ("kvtier run pr90-evict-small --mode real ...")
 * @param sinceMs when it took the file (Unix epoch milliseconds)
 */
public record Holder(long pid, String host, String command, long sinceMs) {
    /** Longest host name kept. */
    public static final int HOST_BYTES_MAX = 62;
    /** Longest command line kept. */
    public static final int COMMAND_BYTES_MAX = 900;

    public Holder {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(command, "command");
        host = clip(host, HOST_BYTES_MAX);
        command = clip(command, COMMAND_BYTES_MAX);
    }

    /** This process, running {@code command}, from now. */
    public static Holder current(final String command) {
        return new Holder(ProcessHandle.current().pid(), hostName(), command, System.currentTimeMillis());
    }

    /** One phrase for messages: {@code pid 4242 (kvtier run ...) on host h since 2026-12-01T16:40:00Z}. */
    public String describe() {
        return "pid " + pid + " (" + command + ") on host " + host + " since " + Instant.ofEpochMilli(sinceMs);
    }

    /** The text a lock file holds (one line). */
    public String toLine() {
        return pid + "\t" + host + "\t" + sinceMs + "\t" + command;
    }

    /** The holder a lock file's line names, or null when it names none (empty, or not kvtier's). */
    public static Holder ofLine(final String line) {
        final String[] f = line.strip().split("\t", 4);
        if (f.length != 4) {
            return null;
        }
        try {
            return new Holder(Long.parseLong(f[0]), f[1], f[3], Long.parseLong(f[2]));
        } catch (final NumberFormatException e) {
            return null;
        }
    }

    private static String hostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.US_ASCII).strip();
        } catch (final IOException | UnsupportedOperationException e) {
            return "unknown";
        }
    }

    /** {@code s} cut to at most {@code maxBytes} of UTF-8, on a character boundary, with no line breaks. */
    static String clip(final String s, final int maxBytes) {
        final String flat = s.replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
        if (flat.getBytes(StandardCharsets.UTF_8).length <= maxBytes) {
            return flat;
        }
        int end = Math.min(flat.length(), maxBytes);
        while (end > 0 && flat.substring(0, end).getBytes(StandardCharsets.UTF_8).length > maxBytes - 3) {
            end--;
        }
        return flat.substring(0, end) + "...";
    }
}
