package dev.kvtier.journal.file;

import dev.kvtier.journal.codec.EventBuffer;
import dev.kvtier.journal.codec.EventCursor;
import dev.kvtier.journal.codec.EventFormatException;
import dev.kvtier.journal.file.JournalException.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import static dev.kvtier.journal.file.SealLayout.*;

/** The seal of a closed journal ({@link SealLayout}): its event count and the size of every queue file. */
record JournalSeal(long eventCount, SortedMap<String, Long> fileSizes) {

    JournalSeal {
        fileSizes = Collections.unmodifiableSortedMap(new TreeMap<>(fileSizes));
        if (eventCount < 0 || fileSizes.size() > FILES_MAX) {
            throw new IllegalArgumentException("seal of " + eventCount + " events, " + fileSizes.size() + " files");
        }
    }

    /** The queue files of {@code dir} and their sizes, in name order. */
    static SortedMap<String, Long> queueFiles(final Path dir) throws IOException {
        final SortedMap<String, Long> sizes = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (final Path file : (Iterable<Path>) files.sorted()::iterator) {
                final String name = file.getFileName().toString();
                if (isQueueFile(name) && Files.isRegularFile(file)) {
                    sizes.put(name, Files.size(file));
                }
            }
        }
        return sizes;
    }

    /** Writes this seal into {@code dir}, through a temporary file renamed into place. */
    void write(final Path dir) throws IOException {
        final EventBuffer out = new EventBuffer(SEAL_BYTES_MAX);
        out.putIntLe(MAGIC);
        out.putByte(ExcerptLayout.FORMAT_VERSION & 0xFF);
        out.putByte(ExcerptLayout.FORMAT_VERSION >>> 8);
        out.putVarLong(eventCount);
        out.putVarLong(fileSizes.size());
        for (final Map.Entry<String, Long> file : fileSizes.entrySet()) {
            out.putText(file.getKey(), NAME_BYTES_MAX);
            out.putVarLong(file.getValue());
        }
        final CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.length());
        out.putIntLe((int) crc.getValue());
        final Path temporary = dir.resolve(FILE_NAME + ".tmp");
        Files.write(temporary, out.toByteArray());
        Files.move(temporary, dir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE);
    }

    /** Reads and checks the seal of {@code dir}, whose file exists. */
    static JournalSeal read(final Path dir) throws JournalException, IOException {
        final Path file = dir.resolve(FILE_NAME);
        final long size = Files.size(file);
        if (size < COUNT_OFFSET + 6 || size > SEAL_BYTES_MAX) {
            throw new JournalException(Problem.CORRUPTED, dir,
                SealLayout.FILE_NAME + ": " + "seal of " + size + " bytes");
        }
        final byte[] bytes = Files.readAllBytes(file);
        final EventCursor c = new EventCursor().wrap(bytes, 0, bytes.length - 4);
        try {
            if (c.intLe() != MAGIC) {
                throw new JournalException(Problem.CORRUPTED, dir,
                    SealLayout.FILE_NAME + ": " + "seal does not start with KVTS");
            }
            final int version = c.u8() | c.u8() << 8;
            if (version > ExcerptLayout.FORMAT_VERSION) {
                throw new JournalException(Problem.NEWER_VERSION, dir, "seal version " + version + ", this reader "
                    + "knows up to " + ExcerptLayout.FORMAT_VERSION);
            }
            final CRC32C crc = new CRC32C();
            crc.update(bytes, 0, bytes.length - 4);
            if ((int) crc.getValue() != new EventCursor().wrap(bytes, bytes.length - 4, 4).intLe()) {
                throw new JournalException(Problem.CORRUPTED, dir,
                    SealLayout.FILE_NAME + ": " + "seal checksum mismatch");
            }
            return decode(c);
        } catch (final EventFormatException e) {
            throw new JournalException(Problem.CORRUPTED, dir,
                SealLayout.FILE_NAME + ": " + "seal does not decode: " + e.getMessage());
        }
    }

    private static JournalSeal decode(final EventCursor c) throws EventFormatException {
        final long count = c.varLong();
        final int files = c.count(FILES_MAX);
        final SortedMap<String, Long> sizes = new TreeMap<>();
        for (int i = 0; i < files; i++) {
            sizes.put(c.text(NAME_BYTES_MAX), c.varLong());
        }
        if (c.remaining() != 0 || count < 0 || sizes.size() != files) {
            throw new EventFormatException("seal has trailing bytes, a negative count or repeated names");
        }
        return new JournalSeal(count, sizes);
    }

    /** Checks that the queue files of {@code dir} are exactly the sealed ones, at the sealed sizes. */
    void checkFiles(final Path dir) throws JournalException, IOException {
        final SortedMap<String, Long> actual = queueFiles(dir);
        for (final Map.Entry<String, Long> sealed : fileSizes.entrySet()) {
            final Long size = actual.get(sealed.getKey());
            if (size == null) {
                throw new JournalException(Problem.TRUNCATED, dir, "queue file " + sealed.getKey() + " is missing");
            }
            if (size.longValue() != sealed.getValue()) {
                throw new JournalException(size < sealed.getValue() ? Problem.TRUNCATED : Problem.CORRUPTED,
                    dir, "queue file " + sealed.getKey() + " is " + size + " bytes, sealed at " + sealed.getValue());
            }
        }
        for (final String name : actual.keySet()) {
            if (!fileSizes.containsKey(name)) {
                throw new JournalException(Problem.CORRUPTED, dir, "queue file " + name + " is not in the seal");
            }
        }
    }

    /**
     * Checks that {@code dir} is a closed journal before anything maps it: a directory with queue files and a seal
     * whose sizes match; returns the seal.
     */
    static JournalSeal checkDirectory(final Path dir) throws JournalException {
        if (!Files.exists(dir)) {
            throw new JournalException(Problem.MISSING, dir, "the path does not exist");
        }
        if (!Files.isDirectory(dir)) {
            throw new JournalException(Problem.NOT_A_JOURNAL, dir, "a file, not a journal directory");
        }
        try {
            final SortedMap<String, Long> queueFiles = JournalSeal.queueFiles(dir);
            if (!Files.isRegularFile(dir.resolve(SealLayout.FILE_NAME))) {
                if (queueFiles.isEmpty()) {
                    throw new JournalException(Problem.NOT_A_JOURNAL, dir, describeContents(dir));
                }
                throw new JournalException(Problem.TRUNCATED, dir, "queue files but no " + SealLayout.FILE_NAME
                    + " (the writer was not closed)");
            }
            final JournalSeal seal = JournalSeal.read(dir);
            seal.checkFiles(dir);
            return seal;
        } catch (final IOException e) {
            throw new JournalException(Problem.NOT_A_JOURNAL, dir, "cannot read: " + e);
        }
    }

    private static String describeContents(final Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            final long count = files.count();
            return count == 0 ? "the directory is empty" : "no journal files among its " + count + " entries";
        }
    }
}
