package dev.kvtier.journal.replay;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;

/**
 * The configuration digest a journal header carries: SHA-256 over the knobs in name order, one {@code name=value\n}
 * line each, as lowercase hex. Recorders compute it; replay recomputes it from the header's knobs and says whether
 * they agree.
 */
public final class ConfigDigest {
    private ConfigDigest() {}

    /** The digest of {@code knobs} (sorted by name, as a {@link SortedMap} iterates). */
    public static String of(final SortedMap<String, String> knobs) {
        if (knobs.comparator() != null) {
            throw new IllegalArgumentException("knobs must be in natural name order");
        }
        final MessageDigest sha = sha256();
        for (final Map.Entry<String, String> knob : knobs.entrySet()) {
            sha.update((knob.getKey() + "=" + knob.getValue() + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
