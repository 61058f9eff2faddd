package dev.kvtier.journal.dump;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.journal.codec.EventFields;
import dev.kvtier.journal.codec.EventLayout;
import dev.kvtier.journal.file.JournalEntry;
import dev.kvtier.journal.file.JournalException;
import dev.kvtier.journal.file.JournalReader;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * Prints a journal one event a line, {@code seq timeNs Type field=value ...}, for a CLI's {@code journal dump}. The
 * whole journal is read and checked even when the range ends early, so a dump of a bad journal never exits 0.
 */
public final class JournalDump {
    /** Exit code: printed, the journal is valid. */
    public static final int OK = 0;
    /** Exit code: a bad journal or a bad argument; one line on {@code err}. */
    public static final int BAD = 2;

    private JournalDump() {}

    /**
     * Prints events with {@code from <= seq <= to} whose record name is in {@code types} (all when empty) to
     * {@code out}; returns {@link #OK}, or {@link #BAD} after one line on {@code err}.
     */
    public static int dump(final Path dir, final long from, final long to, final Set<String> types,
                           final PrintStream out, final PrintStream err) {
        if (from < 0 || to < from) {
            err.println("kvtier: bad sequence range " + from + ".." + to);
            return BAD;
        }
        for (final String type : types) {
            if (EventLayout.tagOf(type) < 0) {
                err.println("kvtier: unknown event type '" + type + "'; known: " + String.join(",",
                    new TreeSet<>(EventLayout.TYPE_NAMES.subList(1, EventLayout.TYPE_NAMES.size()))));
                return BAD;
            }
        }
        try (JournalReader reader = JournalReader.open(dir)) {
            final StringBuilder line = new StringBuilder(256);
            for (JournalEntry entry = reader.next(); entry != null; entry = reader.next()) {
                if (entry.sequence() >= from && entry.sequence() <= to
                    && (types.isEmpty() || types.contains(entry.event().getClass().getSimpleName()))) {
                    line.setLength(0);
                    format(entry, line);
                    out.println(line);
                }
            }
            out.flush();
            return OK;
        } catch (final JournalException e) {
            out.flush();
            err.println("kvtier: " + e.getMessage());
            return BAD;
        }
    }

    /** Appends {@code seq timeNs Type field=value ...} for {@code entry}. */
    public static void format(final JournalEntry entry, final StringBuilder line) {
        line.append(entry.sequence()).append(' ').append(entry.timeNs()).append(' ');
        format(entry.event(), line);
    }

    /** Appends {@code Type field=value ...} for {@code event}. */
    public static void format(final CoreEvent event, final StringBuilder line) {
        EventFields.visit(event, new TextFieldWriter(line));
    }
}
