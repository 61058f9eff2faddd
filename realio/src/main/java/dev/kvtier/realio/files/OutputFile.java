package dev.kvtier.realio.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An output file (a report, a trace, a profile, a summary, a plot) written whole or not at all: its bytes go to a
 * temporary file beside it, which is made durable and renamed over the target only when complete. A failed write
 * leaves the old file as it was and no temporary behind. Missing parent directories are created. A target that is a
 * directory or a special file is refused, and {@link #check} refuses, before a run starts, a target that is one of
 * the run's inputs. The file gets the permissions a plain create would give it (0666 less the user's umask): the
 * temporary is created plainly, not as {@link Files#createTempFile} makes it (0600, which another user could not
 * read).
 */
public final class OutputFile {
    /** Writes the content of an output into the file it is given (a temporary file). */
    @FunctionalInterface
    public interface Content {
        void writeTo(Path file) throws IOException;
    }

    /** Temporaries tried before giving up (each name taken means another writer's or a dead one's temporary). */
    static final int TEMPORARY_ATTEMPTS = 1000;

    /** Numbers this process's temporaries, beside its process id, so two writers never pick the same name. */
    private static final AtomicLong TEMPORARIES = new AtomicLong();

    private OutputFile() {}

    /**
     * Null when {@code target} can be written as {@code role} (for example {@code --report}), else one line saying
     * why not: it is a directory or a special file, one of {@code inputs}, or below a path that is not a directory.
     */
    public static String check(final Path target, final String role, final Collection<Path> inputs) {
        if (Files.isDirectory(target)) {
            return role + " " + target + " is a directory; name a file";
        }
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            return role + " " + target + " is not a regular file";
        }
        for (final Path input : inputs) {
            if (input != null && same(target, input)) {
                return role + " " + target + " is also an input of this command (" + input + "); name another file";
            }
        }
        for (Path p = target.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(p)) {
                if (!Files.isDirectory(p)) {
                    return role + " " + target + ": " + p + " is not a directory";
                }
                if (!Files.isWritable(p)) {
                    return role + " " + target + ": cannot write in " + p + " (permission denied)";
                }
                return null;
            }
        }
        return null;
    }

    /** Writes {@code text} (UTF-8) to {@code target}, whole or not at all. */
    public static void writeString(final Path target, final String text) throws IOException {
        write(target, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code bytes} to {@code target}, whole or not at all. */
    public static void write(final Path target, final byte[] bytes) throws IOException {
        write(target, file -> Files.write(file, bytes));
    }

    /** Lets {@code content} write a temporary file beside {@code target}, then renames it over {@code target}. */
    public static void write(final Path target, final Content content) throws IOException {
        if (Files.isDirectory(target)) {
            throw new FileAlreadyExistsException(target.toString(), null, "is a directory");
        }
        final Path parent = target.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        final Path temporary = createTemporary(parent, "." + target.getFileName() + ".");
        boolean moved = false;
        try {
            content.writeTo(temporary);
            try (FileChannel ch = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            moved = true;
        } finally {
            if (!moved) {
                Files.deleteIfExists(temporary);
            }
        }
    }

    /**
     * A new empty file in {@code dir} named {@code prefix}, a number unique to this process and {@code .kvtier-tmp},
     * created as a plain create makes it (the user's umask applies), so the renamed file gets the usual permissions.
     */
    static Path createTemporary(final Path dir, final String prefix) throws IOException {
        final long pid = ProcessHandle.current().pid();
        for (int attempt = 0; attempt < TEMPORARY_ATTEMPTS; attempt++) {
            final Path candidate = dir.resolve(prefix + pid + "-" + TEMPORARIES.incrementAndGet() + ".kvtier-tmp");
            try {
                return Files.createFile(candidate);
            } catch (final FileAlreadyExistsException taken) {
                // a dead process with this id left it: try the next number
            }
        }
        throw new FileAlreadyExistsException(dir.resolve(prefix + pid + "-*.kvtier-tmp").toString(), null,
            TEMPORARY_ATTEMPTS + " temporary names taken");
    }

    /** One line for a failed write of {@code target}, without the exception's class names. */
    public static String describe(final Path target, final IOException e) {
        final String why = switch (e) {
            case AccessDeniedException a -> "permission denied";
            case NoSuchFileException n -> "no such file or directory: " + n.getFile();
            case NotDirectoryException n -> n.getFile() + " is not a directory";
            case FileAlreadyExistsException f -> f.getFile() + (f.getReason() == null ? " exists" : " "
                + f.getReason());
            case FileSystemException f -> f.getReason() == null ? f.getMessage() : f.getReason();
            default -> e.getMessage();
        };
        return "cannot write " + target + ": " + String.valueOf(why).replace('\n', ' ');
    }

    private static boolean same(final Path a, final Path b) {
        try {
            if (Files.exists(a) && Files.exists(b)) {
                return Files.isSameFile(a, b);
            }
        } catch (final IOException e) {
            return false;
        }
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }
}
