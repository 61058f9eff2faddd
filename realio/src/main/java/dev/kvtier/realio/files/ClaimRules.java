package dev.kvtier.realio.files;

import java.util.Optional;

/**
 * Whether a claim may write a path, from what it holds: the header to write, or a refusal that names the path, what
 * it holds, and how to go on. The rules (docs/what-kvtier-writes.md): absent or empty is taken; kvtier's own file of
 * the asked kind is taken (keeping its creation id); anything else needs {@code --force}; a block device that holds
 * a partition table or a file system needs {@code --force-wipe}; a run that recovers takes only kvtier's own file of
 * the asked kind (and, for an index, of its data file), force or not.
 */
final class ClaimRules {
    private ClaimRules() {}

    static FileHeader decide(final Claim.Request r, final boolean block, final Contents c,
                             final long newId) throws ClaimRefused {
        final boolean empty = c.sizeBytes() == 0 || (block && Signatures.allZero(c.leading(), c.length()));
        if (empty) {
            if (r.recover()) {
                throw new ClaimRefused(r.name() + " is empty: it holds no kvtier " + r.kind().label() + " to recover"
                    + " (run without --recover to start afresh)");
            }
            return fresh(r, newId);
        }
        return switch (FileHeader.decode(c.leading(), c.length())) {
            case FileHeader.Intact i -> ours(r, i.header(), newId);
            case FileHeader.Newer n -> other(r, newId, "was written by a newer kvtier (header format " + n.version()
                + ")");
            case FileHeader.Damaged d -> other(r, newId, "has a damaged kvtier header (" + d.why() + ")");
            case FileHeader.Absent a -> foreign(r, block, c, newId);
        };
    }

    private static FileHeader ours(final Claim.Request r, final FileHeader h, final long newId) throws ClaimRefused {
        if (h.kind() != r.kind()) {
            return other(r, newId, "is a kvtier " + h.kind().label() + ", not " + r.kind().withArticle());
        }
        if (r.kind() == FileKind.INDEX && h.pairId() != r.pairId() && h.pairId() != 0) {
            final String why = "is the index of another L2 data file (its data file's id " + Long.toHexString(h
                .pairId()) + ", this one's " + Long.toHexString(r.pairId()) + ")";
            if (r.recover()) {
                throw new ClaimRefused(r.name() + " " + why + "; recover with the data file it belongs to");
            }
            if (!r.force().foreign()) {
                throw new ClaimRefused(r.name() + " " + why + "; formatting it would lose that file's index: pass "
                    + "--force to format it anyway, or name another --index-device");
            }
        }
        return FileHeader.claimed(r.kind(), h.creationId(), r.pairId(), h.createdMs(), r.holder());
    }

    /** A kvtier file this run cannot use as it is: refused, or (forced, not recovering) taken afresh. */
    private static FileHeader other(final Claim.Request r, final long newId, final String why) throws ClaimRefused {
        if (r.recover()) {
            throw new ClaimRefused(r.name() + " " + why + ": there is no " + r.kind().label() + " to recover");
        }
        if (!r.force().foreign()) {
            throw new ClaimRefused(r.name() + " " + why + "; pass --force to overwrite it, or choose another path");
        }
        return fresh(r, newId);
    }

    private static FileHeader foreign(final Claim.Request r, final boolean block, final Contents c,
                                      final long newId) throws ClaimRefused {
        final Optional<String> volume = Signatures.find(c.leading(), c.length(), true);
        if (block && volume.isPresent() && !r.force().wipe()) {
            throw new ClaimRefused(r.name() + " holds " + volume.get() + "; kvtier will not write over it even "
                + "with --force: pass --force-wipe to destroy it (or clear it first with wipefs -a)");
        }
        final String what = (block ? "a block device with " + c.sizeBytes() + " B of data" : c.sizeBytes()
            + " B") + " that kvtier did not write" + Signatures.find(c.leading(), c.length(), false)
                .map(s -> " (" + s + ")").orElse("");
        if (r.recover()) {
            throw new ClaimRefused(r.name() + " holds " + what + ": it is not a kvtier " + r.kind().label()
                + ", there is nothing to recover");
        }
        if (!r.force().foreign()) {
            throw new ClaimRefused(r.name() + " holds " + what + "; kvtier writes only over an absent or empty "
                + "file or its own " + r.kind().label() + ": pass --force to overwrite it, or choose another path");
        }
        return fresh(r, newId);
    }

    private static FileHeader fresh(final Claim.Request r, final long newId) {
        return FileHeader.claimed(r.kind(), newId, r.pairId(), r.holder().sinceMs(), r.holder());
    }
}
