package dev.kvtier.lab.crash;

import dev.kvtier.core.event.CoreEvent;
import dev.kvtier.core.port.EventSink;
import dev.kvtier.core.value.IoOp;
import dev.kvtier.harness.workload.WorkloadDriver;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The killed run's acknowledgement log, written by the run's process as its core decides ({@link AckLog} reads it),
 * and its kill switch. One line per event the judge needs, numbered by the event's position in the run ({@code seq},
 * from 0):
 *
 * <pre>
 * alloc SEQ HI LO ALLOCATION START SLOTS TAG   a writer claim (TAG: the content the workload stamps its slots with)
 * commit SEQ HI LO ALLOCATION                   a commit acknowledged (in durable mode: its bytes and record durable)
 * evict SEQ ALLOCATION                          the allocation left the ring (or its claim was released)
 * opened SEQ / ready SEQ                        the index opened (formatted) / its first checkpoint is durable
 * phase SEQ NAME                                a workload phase started
 * ckpt SEQ N / ckpt-done SEQ                    the run's N-th checkpoint write went out / the checkpoint is durable
 * shutdown SEQ / shutdown-done SEQ durable|not  the final shutdown was asked for / completed
 * kill SEQ LIFE MS                              the run kills itself here (LIFE: where in its life; MS: JVM age)
 * </pre>
 *
 * <p>Every line is handed to the kernel ({@code write(2)}) before the core goes on, so it is in the OS page cache
 * before the run can die: the page cache survives the process's SIGKILL, so no fsync is needed (a power loss is not
 * what a kill campaign models). When the event named by the run's {@link KillPoint} comes, the writer writes its
 * {@code kill} line and pulls the switch ({@link SelfKill}) inside the core's transition: the process dies at that
 * exact event, with whatever I/O it submitted still in the kernel's hands.
 */
public final class AckWriter implements EventSink, AutoCloseable {
    private final BufferedWriter out;
    private final KillPoint point;
    private final long logOffset;
    private final Runnable kill;
    private long seq = -1;
    private String life = KillPoint.SETUP;
    private boolean opened;
    /** The index's first checkpoint (the format's, or recovery's) is durable: later ones are the run's own. */
    private boolean ready;
    private boolean inCheckpoint;
    private int checkpoints;
    private long anchorSeq = -1;

    /**
     * A log written to {@code file} (created), killing with {@code kill} at {@code point} (null: never).
     *
     * @param logOffset where the index's log area starts: index writes below it are checkpoint writes
     */
    public AckWriter(final Path file, final KillPoint point, final long logOffset,
                     final Runnable kill) throws IOException {
        this.out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII, StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE);
        this.point = point;
        this.logOffset = logOffset;
        this.kill = kill;
        if (point != null && point.anchor().equals(KillPoint.SETUP)) {
            anchorSeq = 0;
        }
    }

    @Override
    public void emit(final CoreEvent e) {
        seq++;
        switch (e) {
            case CoreEvent.Allocated a -> line("alloc " + seq + " " + a.key().hi() + " " + a.key().lo() + " "
                + a.allocationId() + " " + a.startSlot() + " " + a.slotCount() + " " + WorkloadDriver.tagOf(a.key()));
            case CoreEvent.Committed c -> line("commit " + seq + " " + c.key().hi() + " " + c.key().lo() + " "
                + c.allocationId());
            case CoreEvent.RingEvicted v -> line("evict " + seq + " " + v.allocationId());
            case CoreEvent.ClaimReleased r when r.released() -> line("evict " + seq + " " + r.ref().allocationId());
            case CoreEvent.IndexOpened o -> {
                opened = true;
                line("opened " + seq);
            }
            case CoreEvent.PhaseStarted p -> {
                life = p.phase();
                anchor(p.phase(), 0);
                line("phase " + seq + " " + p.phase());
            }
            case CoreEvent.IndexCheckpointed c when opened && !ready -> {
                ready = true;
                line("ready " + seq);
            }
            case CoreEvent.IndexIoSubmitted s when ready && !inCheckpoint && s.op() == IoOp.WRITE
                && s.offset() < logOffset -> {
                inCheckpoint = true;
                checkpoints++;
                anchor(KillPoint.CHECKPOINT, checkpoints);
                line("ckpt " + seq + " " + checkpoints);
            }
            case CoreEvent.IndexCheckpointed c when inCheckpoint -> {
                inCheckpoint = false;
                line("ckpt-done " + seq);
            }
            case CoreEvent.ShutdownRequested s -> {
                life = KillPoint.SHUTDOWN;
                anchor(KillPoint.SHUTDOWN, 0);
                line("shutdown " + seq);
            }
            case CoreEvent.ShutdownCompleted d -> line("shutdown-done " + seq + " " + (d.durable() ? "durable"
                : "not"));
            default -> {
                // the judge needs no other event
            }
        }
        if (anchorSeq >= 0 && seq >= anchorSeq + point.offset()) {
            killHere();
        }
    }

    /** Where in its life the run is now: a checkpoint being written, else its phase (setup, a phase, shutdown). */
    public String life() {
        return inCheckpoint ? KillPoint.CHECKPOINT : life;
    }

    /** The run returned without reaching its point: it dies now, after its end. */
    public void killAtEnd() {
        life = KillPoint.END;
        inCheckpoint = false;
        killHere();
    }

    /** Writes a last line (the measuring run's end, or what broke its run). */
    public void note(final String text) {
        line(text);
    }

    private void anchor(final String name, final int occurrence) {
        if (point != null && anchorSeq < 0 && point.anchor().equals(name) && point.occurrence() == occurrence) {
            anchorSeq = seq;
        }
    }

    private void killHere() {
        // The JVM's age in ms last: where a campaign process spends its time (the reader ignores it).
        line("kill " + Math.max(seq, 0) + " " + life() + " " + ManagementFactory.getRuntimeMXBean().getUptime());
        kill.run();
        throw new IllegalStateException("the run was to be killed at " + point + " but lives on");
    }

    private void line(final String text) {
        try {
            out.write(text);
            out.newLine();
            out.flush();
        } catch (final IOException e) {
            throw new UncheckedIOException("the acknowledgement log: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
