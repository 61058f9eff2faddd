package dev.kvtier.lab.run;

import dev.kvtier.harness.metrics.MissReason;
import dev.kvtier.harness.metrics.RequestTokens;
import dev.kvtier.realio.files.OutputFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code kvtier run --requests FILE}: one line per request that ended, in the order they ended, saying where its input
 * tokens came from and why the prefilled ones were not loaded (docs/commands/run.md, "Why a request missed"). The
 * columns are {@link RequestTokens}'s components, its prefilled tokens by {@link MissReason} spelled out; a key is its
 * 32 hex digits, as {@code kvtier journal dump} prints it.
 */
public final class RequestsCsv {
    /** The header line. */
    public static final String HEADER;

    static {
        final StringBuilder b = new StringBuilder("requestId,phase,arrivalNs,ttftNs,input,fromL1,fromL2,prefilled");
        for (final MissReason m : MissReason.values()) {
            b.append(',').append(m.field());
        }
        HEADER = b.append(",blocks,lookupBlocks,load,firstMissBlock,firstMissReason,firstMissKey").toString();
    }

    private RequestsCsv() {}

    /** Writes {@code requests} to {@code file}, a header first. */
    public static void write(final Path file, final List<RequestTokens> requests) throws IOException {
        final StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (final RequestTokens r : requests) {
            b.append(line(r)).append('\n');
        }
        OutputFile.writeString(file, b.toString());
    }

    /**
     * One request's line. {@code load} is {@code none} (nothing was found to load), {@code ok}, or why the load
     * failed ({@code LEASE_REVOKED}, ...); a full hit has no first miss (-1 and empty fields).
     */
    public static String line(final RequestTokens r) {
        final StringBuilder b = new StringBuilder().append(r.requestId()).append(',').append(r.phase()).append(',')
            .append(r.arrivalNs()).append(',').append(r.ttftNs()).append(',').append(r.input()).append(',')
            .append(r.fromL1()).append(',').append(r.fromL2()).append(',').append(r.prefilled());
        for (final MissReason m : MissReason.values()) {
            b.append(',').append(r.prefilledBy().get(m));
        }
        final String load = r.lookupBlocks() == 0 ? "none" : r.loadFailure() == null ? "ok" : r.loadFailure().name();
        return b.append(',').append(r.blocks()).append(',').append(r.lookupBlocks()).append(',').append(load)
            .append(',').append(r.firstMissBlock()).append(',')
            .append(r.firstMissReason() == null ? "" : r.firstMissReason().field()).append(',')
            .append(r.firstMissKey() == null ? "" : r.firstMissKey().hex()).toString();
    }
}
