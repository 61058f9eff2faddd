package dev.kvtier.lab;

/** The kvtier command's exit codes (STYLE rule 7: distinct codes for distinct failures). */
public final class ExitCodes {
    /** Every check held. */
    public static final int OK = 0;
    /** An invariant failed (correctness or liveness); the seed and the command that reproduces it are printed. */
    public static final int INVARIANT = 1;
    /** Bad input: a malformed scenario, a bad option, a bad journal, a device that cannot be used. */
    public static final int BAD_INPUT = 2;
    /** A bug: the core or the harness crashed on an assertion or an unexpected exception. */
    public static final int CRASH = 3;
    /** A performance gate or threshold failed. */
    public static final int GATE = 4;
    /**
     * Interrupted by SIGINT (or SIGTERM) after keeping what was done: a sealed journal, a partial summary. The JVM
     * itself exits with the signal's status (130 for SIGINT, 143 for SIGTERM); this is 130 for work run in-process.
     */
    public static final int INTERRUPTED = 130;

    private ExitCodes() {}
}
