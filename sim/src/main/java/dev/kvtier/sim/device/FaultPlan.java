package dev.kvtier.sim.device;

/**
 * Device faults to inject, as exact ratios per million I/Os (STYLE rule 16), drawn from the run's seeded "faults"
 * stream in submission order, and what the core claims to tolerate for each kind. Every time-windowed fault stops
 * at {@code untilNs} of virtual time, so liveness can be checked once faults stop.
 *
 * <ul>
 *   <li><b>EIO on a read</b> ({@code readErrorsPerMillion}): the read moves no data and completes with -EIO. Claim:
 *   the load that issued it fails (the engine recomputes); nothing wrong is served.</li>
 *   <li><b>EIO on a write</b> ({@code writeErrorsPerMillion}): the write moves no data and completes with -EIO (also
 *   at a crash: a write fated to fail never lands). Claim: the keys of the range leave the directory (bytes that never
 *   reached L2 are never served) and the error is surfaced with the next store.</li>
 *   <li><b>Latency spikes and a slow device</b> ({@code spikesPerMillion}, {@code spikeNs}, {@code slowdown}): only
 *   cost time. Claim: nothing but time changes.</li>
 *   <li><b>Silent corruption</b> ({@code corruptionsPerMillion}): a write completes OK but one 4 KiB page of it
 *   (drawn) holds wrong content (a provenance run with a tag of its own, {@code Long.MIN_VALUE | n}); deterministic,
 *   so a re-read does not heal it. Claim: detected by the per-slot checksum on every L2 read: the load fails and the
 *   key is evicted, never a wrong byte served. A durable key hit by corruption may be lost: corruption is outside
 *   the durability claim.</li>
 *   <li><b>Misdirected writes</b> ({@code misdirectsPerMillion}): a write completes OK but its data lands at another
 *   4096-aligned offset (drawn uniformly among the offsets where the whole write fits and does not overlap the
 *   intended range, so the intended range keeps its old content; no misdirect when there is no such offset). Claim:
 *   as for corruption, both for the intended range (stale content) and the range hit (foreign content).</li>
 *   <li><b>Full metadata disk</b> ({@code metaFullAfterWrites}, 0 = never; only the metadata device): once that
 *   many metadata writes were accepted, every further metadata write completes with -ENOSPC and writes nothing,
 *   until {@code untilNs}. Claim: index persistence stops; in {@code l1} commit mode keys are still served from this
 *   process, in {@code durable} mode commits are refused until a metadata write succeeds again.</li>
 *   <li><b>A volatile write cache</b> ({@code volatileWriteCache}, implied by {@code crashAtEvent >= 0}; not a fault
 *   by itself, and not bounded by {@code untilNs}): a completed write is visible to reads but durable only once a
 *   FLUSH submitted after its completion has completed (Linux fsync semantics). Off, every completed write is
 *   durable at once and the device behaves exactly as without this option.</li>
 *   <li><b>A crash</b> ({@code crashAtEvent}, -1 = none; the composition root calls the devices' {@code crash} at
 *   that event, counted as its {@code CrashSchedule} says): power loss. Every write in flight or completed but
 *   unflushed is, per 4 KiB page, written, lost or torn (per 512 B sector); the volatile state of the core is lost.
 *   Claim: after a restart no load returns a wrong byte, and in {@code durable} mode every key committed before the
 *   crash is still loadable.</li>
 *   <li><b>More crashes</b> ({@code crashPoints} drawn uniformly from {@code [0, crashWithinEvents)} core events by
 *   the seed's own "crash-points" stream, besides {@code crashAtEvent}; a run crashes at each point it reaches, so
 *   one seed can crash several times, during its shutdown, or never), <b>a crash during the final shutdown</b>
 *   ({@code crashDuringShutdown}: at one of the eight core events after it was asked for, drawn; none when it
 *   completes sooner) and <b>a crash after the final shutdown</b> ({@code crashAfterShutdown}). Each implies the write
 *   cache. Claim: as for one crash; after a completed shutdown every key committed before it survives, in either
 *   commit mode.</li>
 *   <li><b>Flipped index bytes</b> ({@code indexFlipsPerMillion}; only the metadata device): an index write that
 *   completes OK lands with one byte (drawn) inverted, on the media. Claim: recovery's CRC rejects the record or
 *   checkpoint it hits, so no wrong byte is served; durable commits logged at or after it may be lost (outside the
 *   durability claim, as for data corruption).</li>
 *   <li><b>Index pages at a crash</b> ({@code indexCrashPages}): how a crash treats each index page that is not
 *   durable: {@code DRAW} (written, lost or torn, one third each, as for data), {@code TORN} (every such page torn
 *   per sector) or {@code GARBLED} (torn, and one byte of its new bytes inverted: a garbled record). Within the
 *   claim: only bytes that were not durable change.</li>
 *   <li><b>Short writes</b> ({@code shortWritesPerMillion}; only the data device): a write completes with a count
 *   below its length, as pwritev or io_uring may answer: only its leading whole pages (drawn: at least one, not all;
 *   a write of one page is never short) land, the rest of the range keeps its old content, and only they
 *   can become durable. Claim: the core treats it as a failed write (docs/design/STORAGE-CORE.md 4.4): the keys of
 *   the range leave the directory and the error is surfaced with the next store.</li>
 *   <li><b>Lost index writes</b> ({@code indexLostWritesPerMillion}; only the metadata device): an index write
 *   completes OK and reads see it, but it never reaches the media (a firmware's lost write): a FLUSH after it makes
 *   the range's earlier media content durable instead, and a crash keeps that. A lost checkpoint leaves the one
 *   before it the newest on the media while the log goes on past it; a lost log block leaves a hole followed by
 *   intact later records. Claim: as for flipped bytes: recovery's sequence and epoch checks stop at the hole, no
 *   wrong byte is served; durable commits logged in or after it may be lost (outside the durability claim).</li>
 * </ul>
 *
 * @param readErrorsPerMillion  reads that fail with EIO, per million
 * @param writeErrorsPerMillion writes that fail with EIO, per million
 * @param spikesPerMillion      I/Os that get a latency spike, per million
 * @param spikeNs               the spike's extra latency
 * @param slowdown              latency multiplier (1 = none)
 * @param untilNs               no fault after this virtual time
 * @param corruptionsPerMillion writes that silently corrupt one 4 KiB page, per million
 * @param misdirectsPerMillion  writes that land at a wrong offset, per million
 * @param metaFullAfterWrites   metadata writes accepted before the metadata disk is full (0 = never full)
 * @param volatileWriteCache    devices keep completed writes in a volatile cache until a FLUSH
 * @param crashAtEvent          event at which the run crashes, or -1 for none
 * @param crashPoints           further crash points, drawn per seed from {@code [0, crashWithinEvents)}
 * @param crashWithinEvents     the range of core events the crash points are drawn from (positive with points)
 * @param crashAfterShutdown    power loss once the run's final shutdown completed
 * @param indexFlipsPerMillion  index writes that land with one inverted byte, per million
 * @param indexCrashPages       what a crash does to each index page that is not durable
 * @param crashDuringShutdown   power loss during the run's first final shutdown
 * @param shortWritesPerMillion data writes that complete short (fewer bytes than asked), per million
 * @param indexLostWritesPerMillion index writes that complete OK but never reach the media, per million
 */
public record FaultPlan(int readErrorsPerMillion, int writeErrorsPerMillion, int spikesPerMillion, long spikeNs,
                        int slowdown, long untilNs, int corruptionsPerMillion, int misdirectsPerMillion,
                        long metaFullAfterWrites, boolean volatileWriteCache, long crashAtEvent, int crashPoints,
                        long crashWithinEvents, boolean crashAfterShutdown, int indexFlipsPerMillion,
                        IndexCrashPages indexCrashPages, boolean crashDuringShutdown, int shortWritesPerMillion,
                        int indexLostWritesPerMillion) {
    /** Most crash points one plan may draw. */
    public static final int MAX_CRASH_POINTS = 64;

    /** One in a million. */
    public static final int MILLION = 1_000_000;

    /** No faults. */
    public static final FaultPlan NONE = new FaultPlan(0, 0, 0, 0, 1, 0);

    public FaultPlan {
        perMillion("readErrorsPerMillion", readErrorsPerMillion);
        perMillion("writeErrorsPerMillion", writeErrorsPerMillion);
        perMillion("spikesPerMillion", spikesPerMillion);
        perMillion("corruptionsPerMillion", corruptionsPerMillion);
        perMillion("misdirectsPerMillion", misdirectsPerMillion);
        if (spikeNs < 0 || untilNs < 0) {
            throw new IllegalArgumentException("spikeNs and untilNs must not be negative");
        }
        if (slowdown < 1 || slowdown > 1000) {
            throw new IllegalArgumentException("slowdown must be in [1, 1000], got " + slowdown);
        }
        if (metaFullAfterWrites < 0) {
            throw new IllegalArgumentException("metaFullAfterWrites must not be negative, got " + metaFullAfterWrites);
        }
        if (crashAtEvent < -1) {
            throw new IllegalArgumentException("crashAtEvent must be -1 (none) or an event number, got "
                + crashAtEvent);
        }
        if (crashPoints < 0 || crashPoints > MAX_CRASH_POINTS) {
            throw new IllegalArgumentException("crashPoints must be in [0, " + MAX_CRASH_POINTS + "], got "
                + crashPoints);
        }
        if (crashWithinEvents < 0 || (crashPoints > 0 && crashWithinEvents == 0)) {
            throw new IllegalArgumentException("crashWithinEvents must be positive when crashPoints is set, got "
                + crashWithinEvents);
        }
        perMillion("indexFlipsPerMillion", indexFlipsPerMillion);
        perMillion("shortWritesPerMillion", shortWritesPerMillion);
        perMillion("indexLostWritesPerMillion", indexLostWritesPerMillion);
        if (indexCrashPages == null) {
            throw new IllegalArgumentException("indexCrashPages must be set, got null");
        }
    }

    /** The kinds up to a single crash: no crash points, no crash after shutdown, no index faults. */
    public FaultPlan(final int readErrorsPerMillion, final int writeErrorsPerMillion, final int spikesPerMillion,
                     final long spikeNs, final int slowdown, final long untilNs, final int corruptionsPerMillion,
                     final int misdirectsPerMillion, final long metaFullAfterWrites, final boolean volatileWriteCache,
                     final long crashAtEvent) {
        this(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown, untilNs,
            corruptionsPerMillion, misdirectsPerMillion, metaFullAfterWrites, volatileWriteCache, crashAtEvent, 0, 0,
            false, 0, IndexCrashPages.DRAW, false, 0, 0);
    }

    /** The original fault kinds only: no corruption, misdirect, full metadata disk, write cache or crash. */
    public FaultPlan(final int readErrorsPerMillion, final int writeErrorsPerMillion, final int spikesPerMillion,
                     final long spikeNs, final int slowdown, final long untilNs) {
        this(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown, untilNs, 0, 0, 0,
            false, -1);
    }

    /** True when this plan injects anything: a time-windowed fault before {@code untilNs}, or a crash. */
    public boolean any() {
        return windowed() || crashes();
    }

    /** True when the run may crash: at an event, at drawn points, or after its shutdown. */
    public boolean crashes() {
        return crashAtEvent >= 0 || crashPoints > 0 || crashAfterShutdown || crashDuringShutdown;
    }

    /** True when a fault of the time window (EIO, spike, slowdown, corruption, misdirect, full disk) is set. */
    public boolean windowed() {
        return untilNs > 0 && (readErrorsPerMillion > 0 || writeErrorsPerMillion > 0 || spikesPerMillion > 0
            || slowdown > 1 || corruptionsPerMillion > 0 || misdirectsPerMillion > 0 || metaFullAfterWrites > 0
            || indexFlipsPerMillion > 0 || shortWritesPerMillion > 0
            || indexLostWritesPerMillion > 0);
    }

    /** True when time-windowed faults apply to an I/O submitted at {@code nowNs}. */
    public boolean activeAt(final long nowNs) {
        return windowed() && nowNs < untilNs;
    }

    /** True when the devices keep a volatile write cache (set explicitly, or implied by a crash). */
    public boolean writeCacheEnabled() {
        return volatileWriteCache || crashes();
    }

    /** This plan with silent corruption of {@code perMillion} writes. */
    public FaultPlan withCorruptionsPerMillion(final int perMillion) {
        return new FaultPlan(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown,
            untilNs, perMillion, misdirectsPerMillion, metaFullAfterWrites, volatileWriteCache, crashAtEvent,
            crashPoints, crashWithinEvents, crashAfterShutdown, indexFlipsPerMillion, indexCrashPages,
            crashDuringShutdown, shortWritesPerMillion, indexLostWritesPerMillion);
    }

    /** This plan with {@code perMillion} misdirected writes. */
    public FaultPlan withMisdirectsPerMillion(final int perMillion) {
        return new FaultPlan(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown,
            untilNs, corruptionsPerMillion, perMillion, metaFullAfterWrites, volatileWriteCache, crashAtEvent,
            crashPoints, crashWithinEvents, crashAfterShutdown, indexFlipsPerMillion, indexCrashPages,
            crashDuringShutdown, shortWritesPerMillion, indexLostWritesPerMillion);
    }

    /** This plan with a metadata disk that is full after {@code writes} accepted writes (0 = never). */
    public FaultPlan withMetaFullAfterWrites(final long writes) {
        return new FaultPlan(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown,
            untilNs, corruptionsPerMillion, misdirectsPerMillion, writes, volatileWriteCache, crashAtEvent,
            crashPoints, crashWithinEvents, crashAfterShutdown, indexFlipsPerMillion, indexCrashPages,
            crashDuringShutdown, shortWritesPerMillion, indexLostWritesPerMillion);
    }

    /** This plan with the volatile write cache on or off (a crash still implies it). */
    public FaultPlan withVolatileWriteCache(final boolean on) {
        return new FaultPlan(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown,
            untilNs, corruptionsPerMillion, misdirectsPerMillion, metaFullAfterWrites, on, crashAtEvent,
            crashPoints, crashWithinEvents, crashAfterShutdown, indexFlipsPerMillion, indexCrashPages,
            crashDuringShutdown, shortWritesPerMillion, indexLostWritesPerMillion);
    }

    /** This plan with a crash at event {@code event} (-1 = none). */
    public FaultPlan withCrashAtEvent(final long event) {
        return new FaultPlan(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown,
            untilNs, corruptionsPerMillion, misdirectsPerMillion, metaFullAfterWrites, volatileWriteCache, event,
            crashPoints, crashWithinEvents, crashAfterShutdown, indexFlipsPerMillion, indexCrashPages,
            crashDuringShutdown, shortWritesPerMillion, indexLostWritesPerMillion);
    }

    /** This plan with {@code points} crash points drawn from {@code [0, withinEvents)}. */
    public FaultPlan withCrashPoints(final int points, final long withinEvents) {
        return new FaultPlan(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown,
            untilNs, corruptionsPerMillion, misdirectsPerMillion, metaFullAfterWrites, volatileWriteCache,
            crashAtEvent, points, withinEvents, crashAfterShutdown, indexFlipsPerMillion, indexCrashPages,
            crashDuringShutdown, shortWritesPerMillion, indexLostWritesPerMillion);
    }

    /** This plan with (or without) a crash after the final shutdown. */
    public FaultPlan withCrashAfterShutdown(final boolean on) {
        return new FaultPlan(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown,
            untilNs, corruptionsPerMillion, misdirectsPerMillion, metaFullAfterWrites, volatileWriteCache,
            crashAtEvent, crashPoints, crashWithinEvents, on, indexFlipsPerMillion, indexCrashPages,
            crashDuringShutdown, shortWritesPerMillion, indexLostWritesPerMillion);
    }

    /** This plan with (or without) a crash during the final shutdown. */
    public FaultPlan withCrashDuringShutdown(final boolean on) {
        return new FaultPlan(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown,
            untilNs, corruptionsPerMillion, misdirectsPerMillion, metaFullAfterWrites, volatileWriteCache,
            crashAtEvent, crashPoints, crashWithinEvents, crashAfterShutdown, indexFlipsPerMillion, indexCrashPages,
            on, shortWritesPerMillion, indexLostWritesPerMillion);
    }

    /** This plan with {@code perMillion} index writes landing with a flipped byte. */
    public FaultPlan withIndexFlipsPerMillion(final int perMillion) {
        return new FaultPlan(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown,
            untilNs, corruptionsPerMillion, misdirectsPerMillion, metaFullAfterWrites, volatileWriteCache,
            crashAtEvent, crashPoints, crashWithinEvents, crashAfterShutdown, perMillion, indexCrashPages,
            crashDuringShutdown, shortWritesPerMillion, indexLostWritesPerMillion);
    }

    /** This plan with {@code pages} as what a crash does to index pages that are not durable. */
    public FaultPlan withIndexCrashPages(final IndexCrashPages pages) {
        return new FaultPlan(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown,
            untilNs, corruptionsPerMillion, misdirectsPerMillion, metaFullAfterWrites, volatileWriteCache,
            crashAtEvent, crashPoints, crashWithinEvents, crashAfterShutdown, indexFlipsPerMillion, pages,
            crashDuringShutdown, shortWritesPerMillion, indexLostWritesPerMillion);
    }

    /** This plan with {@code perMillion} data writes completing short. */
    public FaultPlan withShortWritesPerMillion(final int perMillion) {
        return new FaultPlan(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown,
            untilNs, corruptionsPerMillion, misdirectsPerMillion, metaFullAfterWrites, volatileWriteCache,
            crashAtEvent, crashPoints, crashWithinEvents, crashAfterShutdown, indexFlipsPerMillion, indexCrashPages,
            crashDuringShutdown, perMillion, indexLostWritesPerMillion);
    }

    /** This plan with {@code perMillion} index writes lost on the way to the media. */
    public FaultPlan withIndexLostWritesPerMillion(final int perMillion) {
        return new FaultPlan(readErrorsPerMillion, writeErrorsPerMillion, spikesPerMillion, spikeNs, slowdown,
            untilNs, corruptionsPerMillion, misdirectsPerMillion, metaFullAfterWrites, volatileWriteCache,
            crashAtEvent, crashPoints, crashWithinEvents, crashAfterShutdown, indexFlipsPerMillion, indexCrashPages,
            crashDuringShutdown, shortWritesPerMillion, perMillion);
    }

    private static void perMillion(final String what, final int v) {
        if (v < 0 || v > MILLION) {
            throw new IllegalArgumentException(what + " must be in [0, 1000000], got " + v);
        }
    }
}
