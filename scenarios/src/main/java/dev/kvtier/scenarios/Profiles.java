package dev.kvtier.scenarios;

import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.toml.TomlMapper;

/**
 * Device and host-cost profiles by bundled name or by file path (TOML with the profile record's keys, as
 * {@code kvtier calibrate} writes them; extra tables such as {@code [[measurement]]} are allowed). A host profile's
 * {@code checksumBytesPerSec}, {@code verifyBytesPerSec}, {@code stampBytesPerSec} and {@code eventNs} are optional
 * (0, not charged, when absent), so profiles written before they existed load as they did.
 */
public final class Profiles {
    /** The longest latency or per-item cost a profile may give (an hour): virtual times stay far from 64 bits. */
    public static final long NS_MAX = 3_600_000_000_000L;
    /** Bound of a per-item cost overridden in a scenario's {@code [host]} table. */
    private static final long OVERRIDE_NS_MAX = 1_000_000_000_000L;
    private static final TomlMapper TOML = new TomlMapper();

    private Profiles() {}

    /** A bundled device profile, or one loaded from {@code nameOrPath} (relative to {@code base}). */
    public static DeviceProfile device(final String source, final String key, final String nameOrPath,
                                       final Path base) throws ScenarioException {
        final DeviceProfile bundled = DeviceProfile.bundled(nameOrPath);
        if (bundled != null) {
            return bundled;
        }
        final String file = describe(nameOrPath, base);
        final Section s = new Section(file, "device", read(source, key, nameOrPath, base));
        try {
            return new DeviceProfile(s.requiredString("name"), s.requiredLong("readLatencyNs", 1, NS_MAX),
                s.requiredLong("writeLatencyNs", 1, NS_MAX), s.requiredLong("flushLatencyNs", 1, NS_MAX),
                s.requiredLong("readBytesPerSec", 1, Long.MAX_VALUE),
                s.requiredLong("writeBytesPerSec", 1, Long.MAX_VALUE), (int) s.requiredLong("parallelism", 1, 1024),
                s.longValue("drainBytesPerSec", 0, 0, Long.MAX_VALUE), s.longValue("drainDelayNs", 0, 0, NS_MAX));
        } catch (final IllegalArgumentException e) {
            throw new ScenarioException(file + ": " + e.getMessage());
        }
    }

    /** A bundled host cost profile, or one loaded from {@code nameOrPath}. */
    public static HostCostProfile host(final String source, final String key, final String nameOrPath,
                                       final Path base) throws ScenarioException {
        final HostCostProfile bundled = HostCostProfile.bundled(nameOrPath);
        if (bundled != null) {
            return bundled;
        }
        final String file = describe(nameOrPath, base);
        final Section s = new Section(file, "host", read(source, key, nameOrPath, base));
        try {
            return new HostCostProfile(s.requiredString("name"), s.requiredLong("spanNs", 0, NS_MAX),
                s.requiredLong("entryNs", 0, NS_MAX), s.requiredLong("ioSubmitNs", 0, NS_MAX),
                s.requiredLong("ioCompleteNs", 0, NS_MAX), s.requiredLong("requestNs", 0, NS_MAX),
                s.requiredLong("memcpyBytesPerSec", 1, Long.MAX_VALUE),
                s.requiredLong("dmaBytesPerSec", 1, Long.MAX_VALUE), s.bool("copiesOnServerThread", true),
                s.longValue("checksumBytesPerSec", 0, 0, Long.MAX_VALUE),
                s.longValue("verifyBytesPerSec", 0, 0, Long.MAX_VALUE),
                s.longValue("stampBytesPerSec", 0, 0, Long.MAX_VALUE), s.longValue("eventNs", 0, 0, Long.MAX_VALUE),
                s.bool("engineOnServerThread", false), s.longValue("checksumCopiedBytesPerSec", 0, 0, Long.MAX_VALUE),
                s.longValue("copyOpNs", 0, 0, NS_MAX),
                s.longValue("otherWorkPpm", 0, 0, HostCostProfile.OTHER_WORK_PPM_MAX));
        } catch (final IllegalArgumentException e) {
            throw new ScenarioException(file + ": " + e.getMessage());
        }
    }

    /**
     * A scenario's {@code [host]} table: any field of the host cost profile {@code sim.host} names, overridden (a
     * sweep over the per-span cost, say); the profile is then named after its base with {@code +overrides}.
     */
    static HostCostProfile hostOverrides(final Section s, final HostCostProfile base) throws ScenarioException {
        final long span = s.longValue("spanNs", base.spanNs(), 0, OVERRIDE_NS_MAX);
        final long entry = s.longValue("entryNs", base.entryNs(), 0, OVERRIDE_NS_MAX);
        final long submit = s.longValue("ioSubmitNs", base.ioSubmitNs(), 0, OVERRIDE_NS_MAX);
        final long complete = s.longValue("ioCompleteNs", base.ioCompleteNs(), 0, OVERRIDE_NS_MAX);
        final long request = s.longValue("requestNs", base.requestNs(), 0, OVERRIDE_NS_MAX);
        final long memcpy = s.longValue("memcpyBytesPerSec", base.memcpyBytesPerSec(), 1, Long.MAX_VALUE);
        final long dma = s.longValue("dmaBytesPerSec", base.dmaBytesPerSec(), 1, Long.MAX_VALUE);
        final boolean onThread = s.bool("copiesOnServerThread", base.copiesOnServerThread());
        final long checksum = s.longValue("checksumBytesPerSec", base.checksumBytesPerSec(), 0, Long.MAX_VALUE);
        final long verify = s.longValue("verifyBytesPerSec", base.verifyBytesPerSec(), 0, Long.MAX_VALUE);
        final long stamp = s.longValue("stampBytesPerSec", base.stampBytesPerSec(), 0, Long.MAX_VALUE);
        final long event = s.longValue("eventNs", base.eventNs(), 0, OVERRIDE_NS_MAX);
        final boolean engineOnThread = s.bool("engineOnServerThread", base.engineOnServerThread());
        final long copiedChecksum = s.longValue("checksumCopiedBytesPerSec", base.checksumCopiedBytesPerSec(), 0,
            Long.MAX_VALUE);
        final long copyOp = s.longValue("copyOpNs", base.copyOpNs(), 0, OVERRIDE_NS_MAX);
        final long other = s.longValue("otherWorkPpm", base.otherWorkPpm(), 0, HostCostProfile.OTHER_WORK_PPM_MAX);
        s.rejectUnknown();
        return new HostCostProfile(base.name() + "+overrides", span, entry, submit, complete, request, memcpy, dma,
            onThread, checksum, verify, stamp, event, engineOnThread, copiedChecksum, copyOp, other);
    }

    /**
     * A scenario a scenario names ({@code gate.baseline}): a library name as it is, a path resolved against the naming
     * scenario's directory {@code base} (as {@code sim.device} is), not the working directory.
     */
    static String besideScenario(final String nameOrPath, final Path base, final List<String> library) {
        return library.contains(nameOrPath) || base == null ? nameOrPath : base.resolve(nameOrPath).toString();
    }

    private static String describe(final String nameOrPath, final Path base) {
        return (base == null ? Path.of(nameOrPath) : base.resolve(nameOrPath)).toString();
    }

    private static JsonNode read(final String source, final String key, final String nameOrPath,
                                 final Path base) throws ScenarioException {
        final Path p = base == null ? Path.of(nameOrPath) : base.resolve(nameOrPath);
        if (!Files.isRegularFile(p)) {
            throw new ScenarioException(source + ": key '" + key + "': \"" + nameOrPath
                + "\" is neither a bundled profile nor a readable file");
        }
        final String text;
        try {
            if (Files.size(p) > Limits.TEXT_BYTES_MAX) {
                throw new ScenarioException(p + ": " + Files.size(p) + " B is too large for a profile");
            }
            text = Files.readString(p);
        } catch (final IOException e) {
            throw new ScenarioException(p + ": cannot read the profile: " + e.getMessage());
        }
        try {
            final JsonNode tree = TOML.readTree(text);
            if (tree == null || !tree.isObject()) {
                throw new ScenarioException(p + ": not a profile (a TOML table)");
            }
            return tree;
        } catch (final JacksonException e) {
            throw new ScenarioException(TomlErrors.describe(p.toString(), text, e));
        }
    }
}
