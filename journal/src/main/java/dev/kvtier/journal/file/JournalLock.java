package dev.kvtier.journal.file;

import dev.kvtier.journal.file.JournalException.Problem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * A journal directory held by its writer: a lock file ({@value #FILE_NAME}) inside it, locked for the writer's life
 * and holding one line that names the holder. A second writer of the same directory, in this process or another, is
 * refused at once with that line; the directory must be absent or empty (but for a lock file a killed writer left)
 * when the lock is taken, and the check is made under the lock, so two writers never both find it empty. The lock
 * file is removed when the writer closes; readers ignore it (the seal lists only queue files).
 */
final class JournalLock {
    /** The lock file's name inside the journal directory. */
    static final String FILE_NAME = "kvtier-journal.lock";

    private final Path dir;
    private final boolean createdDir;
    private final FileChannel channel;
    private final FileLock lock;
    private boolean released;

    private JournalLock(final Path dir, final boolean createdDir, final FileChannel channel, final FileLock lock) {
        this.dir = dir;
        this.createdDir = createdDir;
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes {@code dir} (absent or empty) for a writer that {@code holder} names. */
    static JournalLock take(final Path dir, final String holder) throws JournalException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new JournalException(Problem.WRITE_FAILED, dir, "exists and is not a directory");
        }
        final boolean createdDir = !Files.exists(dir);
        final Path file = dir.resolve(FILE_NAME);
        final FileChannel channel;
        boolean createdFile = false;
        try {
            Files.createDirectories(dir);
            FileChannel ch;
            try {
                ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
                createdFile = true;
            } catch (final FileAlreadyExistsException e) {
                ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            channel = ch;
        } catch (final IOException e) {
            throw new JournalException(Problem.WRITE_FAILED, dir, e.toString());
        }
        final FileLock lock = tryLock(dir, channel);
        try {
            checkEmpty(dir);
            final byte[] line = (holder.replace('\n', ' ') + "\n").getBytes(StandardCharsets.UTF_8);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(line), 0);
            channel.force(true);
            return new JournalLock(dir, createdDir, channel, lock);
        } catch (final JournalException | IOException e) {
            try {
                if (createdFile) {
                    Files.deleteIfExists(file);
                }
                if (createdDir) {
                    Files.deleteIfExists(dir);
                }
                lock.release();
                channel.close();
            } catch (final IOException ignored) {
                // the refusal below says what matters
            }
            throw e instanceof JournalException j ? j : new JournalException(Problem.WRITE_FAILED, dir, e.toString());
        }
    }

    /**
     * Refuses {@code dir} while a writer holds its lock (its run is still going): what a salvage may read only once
     * the writer is gone. A lock file a killed writer left is free, and is left as it is.
     */
    static void checkWriterGone(final Path dir) throws JournalException {
        final Path file = dir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            tryLock(dir, channel).release();
        } catch (final IOException e) {
            throw new JournalException(Problem.IN_USE, dir, "cannot check " + FILE_NAME + ": " + e);
        }
    }

    private static FileLock tryLock(final Path dir, final FileChannel channel) throws JournalException {
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (final OverlappingFileLockException e) {
            lock = null;
        } catch (final IOException e) {
            closeQuietly(channel);
            throw new JournalException(Problem.WRITE_FAILED, dir, "cannot lock " + FILE_NAME + ": " + e);
        }
        if (lock == null) {
            final String holder = holderOf(channel);
            closeQuietly(channel);
            throw new JournalException(Problem.IN_USE, dir, "another run writes it: " + holder
                + "; wait for it to end, or choose another directory");
        }
        return lock;
    }

    private static void checkEmpty(final Path dir) throws JournalException, IOException {
        try (Stream<Path> files = Files.list(dir)) {
            final List<String> others = files.map(p -> p.getFileName().toString()).filter(n -> !n.equals(FILE_NAME))
                .sorted().limit(3).toList();
            if (!others.isEmpty()) {
                throw new JournalException(Problem.WRITE_FAILED, dir, "directory is not empty (it holds "
                    + String.join(", ", others) + (others.size() == 3 ? ", ..." : "") + "); a journal needs an "
                    + "absent or empty directory");
            }
        }
    }

    private static String holderOf(final FileChannel channel) {
        try {
            final ByteBuffer b = ByteBuffer.allocate(2048);
            channel.read(b, 0);
            final String line = new String(b.array(), 0, b.position(), StandardCharsets.UTF_8).strip();
            return line.isEmpty() ? "a process that has not said who it is yet" : line;
        } catch (final IOException e) {
            return "another process";
        }
    }

    /** Removes every file of the journal (the directory held nothing else), and the directory when it made it. */
    void discard() {
        try (Stream<Path> files = Files.list(dir)) {
            for (final Path f : files.filter(p -> !p.getFileName().toString().equals(FILE_NAME)).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (final IOException e) {
            // what is left is named by the run's own message; the lock is released below regardless
        }
        release();
        if (createdDir) {
            try {
                Files.deleteIfExists(dir);
            } catch (final IOException e) {
                // not empty any more: someone else wrote into it; leave it
            }
        }
    }

    /** Removes the lock file and releases the lock; once. */
    void release() {
        if (released) {
            return;
        }
        released = true;
        try {
            Files.deleteIfExists(dir.resolve(FILE_NAME));
            lock.release();
        } catch (final IOException e) {
            // the lock goes with the channel below
        } finally {
            closeQuietly(channel);
        }
    }

    private static void closeQuietly(final FileChannel channel) {
        try {
            channel.close();
        } catch (final IOException e) {
            // nothing to do: closing releases the lock or it was never held
        }
    }
}
