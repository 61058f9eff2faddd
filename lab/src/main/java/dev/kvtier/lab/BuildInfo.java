package dev.kvtier.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What the build stamped into this CLI: the git commit it was built from. The launcher passes
 * {@code -Dkvtier.build.commit=$(git rev-parse HEAD)} to every Maven build, and a filtered resource (in
 * {@code lab/pom.xml}) writes it into {@code dev/kvtier/lab/build.properties}; a build without it (plain {@code mvn},
 * or outside a git checkout) stamps {@link #UNKNOWN}. The commit is fixed at build time, not read from the directory
 * the CLI runs in, so a summary or a journal names the code that produced it wherever it ran (a container, another
 * checkout). Uncommitted changes are not recorded, and the launcher rebuilds only when sources change: a build made
 * before a commit keeps naming the commit before it until the next source change.
 */
public final class BuildInfo {
    /** The commit when the build could not tell. */
    public static final String UNKNOWN = "unknown";
    private static final String RESOURCE = "build.properties";
    private static final String COMMIT = load();

    private BuildInfo() {}

    /** The 40 hex digits of the commit this CLI was built from, or {@link #UNKNOWN}. */
    public static String commit() {
        return COMMIT;
    }

    private static String load() {
        final Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return UNKNOWN;
            }
            p.load(in);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read the build stamp " + RESOURCE, e);
        }
        final String id = p.getProperty("git.commit.id.full", "").strip();
        return id.matches("[0-9a-f]{40}") ? id : UNKNOWN;
    }
}
