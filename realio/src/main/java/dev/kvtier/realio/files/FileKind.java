package dev.kvtier.realio.files;

/** What a file kvtier writes is for; stored in its header, so a file of one kind is never taken for another. */
public enum FileKind {
    /** The L2 data file (or block device) of a real run. */
    DATA(1, "L2 data file", "an"),
    /** The crash-safe index of a real run. */
    INDEX(2, "index file", "an"),
    /** A scratch file of {@code calibrate}, {@code bench-io} or {@code bench-recovery}: its bytes mean nothing. */
    SCRATCH(3, "scratch file", "a");

    private final int code;
    private final String label;
    private final String article;

    FileKind(final int code, final String label, final String article) {
        this.code = code;
        this.label = label;
        this.article = article;
    }

    /** The label with its article ("an L2 data file"). */
    public String withArticle() {
        return article + " " + label;
    }

    /** The value in the header's kind field. */
    public int code() {
        return code;
    }

    /** How messages name the kind ("L2 data file"). */
    public String label() {
        return label;
    }

    /** The kind stored as {@code code}, or null for a code this version does not know. */
    public static FileKind ofCode(final int code) {
        for (final FileKind k : values()) {
            if (k.code == code) {
                return k;
            }
        }
        return null;
    }
}
