package dev.kvtier.lab.images;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.lab.crash.AckLog;
import dev.kvtier.realio.record.DeviceRole;
import dev.kvtier.realio.record.IoLog;
import dev.kvtier.realio.record.PageStore;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A recorded run kept on disk, so that its images can be checked again without running it
 * ({@code crash-images --from-record DIR}): a new directory holding
 *
 * <pre>
 * record.txt   "# kvtier crash-images record 1", "events N", then one entry a line:
 *              KIND ROLE IO_ID OP OFFSET LENGTH FIRST_PAGE RESULT EVENTS   (KIND: SUBMIT or COMPLETE)
 * pages.bin    the written contents, 4 KiB pages in the order the record numbers them
 * acks.txt     the run's acknowledgement log ({@link dev.kvtier.lab.crash.AckWriter}'s format)
 * </pre>
 */
final class RecordFiles {
    static final String HEADER = "# kvtier crash-images record 1";

    /**
     * A record read back.
     *
     * @param log  the writes and flushes with their contents
     * @param acks the acknowledgements
     */
    record Saved(IoLog log, AckLog acks) {}

    private RecordFiles() {}

    /** Writes {@code log} and the acknowledgement log at {@code acks} into {@code dir}, which it creates. */
    static void write(final Path dir, final IoLog log, final Path acks) throws IOException {
        Files.createDirectory(dir);
        final List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        lines.add("events " + log.events());
        for (final IoLog.Entry e : log.entries()) {
            lines.add(e.kind() + " " + e.role() + " " + e.ioId() + " " + e.op() + " " + e.offset() + " "
                + e.lengthBytes() + " " + e.firstPage() + " " + e.result() + " " + e.events());
        }
        Files.write(dir.resolve("record.txt"), lines, StandardCharsets.US_ASCII);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(dir.resolve("pages.bin")))) {
            log.pages().writeTo(out);
        }
        Files.copy(acks, dir.resolve("acks.txt"));
    }

    /** Reads the record in {@code dir}, keeping at most {@code maxBytes} of contents. */
    static Saved read(final Path dir, final long maxBytes) throws IOException {
        final List<String> lines = Files.readAllLines(dir.resolve("record.txt"), StandardCharsets.US_ASCII);
        if (lines.size() < 2 || !lines.get(0).equals(HEADER) || !lines.get(1).startsWith("events ")) {
            throw new IOException(dir.resolve("record.txt") + " is not a crash-images record (no '" + HEADER
                + "' line)");
        }
        final List<IoLog.Entry> entries = new ArrayList<>(lines.size());
        for (int i = 2; i < lines.size(); i++) {
            final String[] f = lines.get(i).split(" ", -1);
            try {
                entries.add(new IoLog.Entry(IoLog.Kind.valueOf(f[0]), DeviceRole.valueOf(f[1]), Long.parseLong(f[2]),
                    IoOp.valueOf(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]), Integer.parseInt(f[6]),
                    Long.parseLong(f[7]), Long.parseLong(f[8])));
            } catch (final IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
                throw new IOException(dir.resolve("record.txt") + " line " + (i + 1) + " is not an entry: "
                    + lines.get(i), e);
            }
        }
        final PageStore pages = new PageStore(maxBytes);
        final Path pagesFile = dir.resolve("pages.bin");
        if (Files.size(pagesFile) > maxBytes) {
            throw new IOException(pagesFile + " holds " + Files.size(pagesFile) + " B, above --record-max-mib");
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(pagesFile))) {
            pages.readFrom(in);
        }
        try {
            return new Saved(IoLog.restored(entries, pages, Long.parseLong(lines.get(1).substring(7))),
                AckLog.read(dir.resolve("acks.txt")));
        } catch (final IllegalArgumentException e) {
            throw new IOException(dir + ": " + e.getMessage(), e);
        }
    }
}
