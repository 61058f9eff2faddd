/**
 * What kvtier writes on its users' disks, and how it makes sure it writes only there.
 *
 * <ul>
 *   <li>{@link dev.kvtier.realio.files.FileHeader} ({@link dev.kvtier.realio.files.HeaderLayout}): the first 4096
 *       bytes of every file or block device kvtier writes with O_DIRECT (an L2 data file, an index file, a scratch
 *       file of calibrate or a benchmark): its kind, format version, creation id, the data file an index belongs to,
 *       and who holds it now. The devices address their bytes after it (a base offset), so the core's offsets, and
 *       every event digest, are the same as without it.</li>
 *   <li>{@link dev.kvtier.realio.files.Claim}: taking a path for a run. It opens the path, holds an advisory lock
 *       ({@code flock}) on it for the run's life, and accepts it only when it is absent, empty, or kvtier's file of
 *       the right kind; anything else is refused with one line ({@link dev.kvtier.realio.files.ClaimRefused}) unless
 *       the user forces it ({@link dev.kvtier.realio.files.Force}); a block device with a partition table or a file
 *       system ({@link dev.kvtier.realio.files.Signatures}) needs more than the plain force.</li>
 *   <li>{@link dev.kvtier.realio.files.OutputFile}: reports, traces, profiles and results, written to a temporary
 *       name beside the target and renamed into place only when whole.</li>
 * </ul>
 *
 * Every system call goes through the {@link dev.kvtier.realio.ffi.Kernel} port, so tests substitute it to fail any
 * of them.
 */
package dev.kvtier.realio.files;
