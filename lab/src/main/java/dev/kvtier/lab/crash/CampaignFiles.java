package dev.kvtier.lab.crash;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The files of a campaign: its L2 file and index ({@code DEVICE}, {@code DEVICE.index}), which its processes create,
 * and its working directory, which holds per kill the job handed to the process that ran it, that process's output
 * (which also holds the recovery of the kill before), the run's acknowledgement log, the list of chunks its recovery
 * returned and the verdict. A kill that held has its files deleted once judged; a failing kill's stay.
 *
 * @param work   the working directory
 * @param device the L2 file
 */
record CampaignFiles(Path work, Path device) {
    /** The campaign's index file, beside its L2 file. */
    Path index() {
        return device.resolveSibling(device.getFileName() + ".index");
    }

    Path job(final long kill) {
        return work.resolve("kill-" + kill + ".job.json");
    }

    /** The output of the process that ran the kill (and recovered the kill before it). */
    Path log(final long kill) {
        return work.resolve("kill-" + kill + ".log");
    }

    Path acks(final long kill) {
        return work.resolve("kill-" + kill + ".acks");
    }

    Path recovered(final long kill) {
        return work.resolve("kill-" + kill + ".recovered.txt");
    }

    Path verdict(final long kill) {
        return work.resolve("kill-" + kill + ".verdict.json");
    }

    /** The measuring run's job, output and acknowledgement log. */
    List<Path> measuring() {
        return List.of(work.resolve("measure.job.json"), work.resolve("measure.log"), work.resolve("measure.acks"));
    }

    /** The last recovery's job and output (a process that runs nothing after). */
    List<Path> last() {
        return List.of(work.resolve("last.job.json"), work.resolve("last.log"));
    }

    /** Deletes a judged kill's files. */
    void drop(final long kill) throws IOException {
        for (final Path p : List.of(job(kill), log(kill), acks(kill), recovered(kill), verdict(kill))) {
            Files.deleteIfExists(p);
        }
    }

    /** Deletes these files, if there. */
    static void drop(final List<Path> files) throws IOException {
        for (final Path p : files) {
            Files.deleteIfExists(p);
        }
    }
}
