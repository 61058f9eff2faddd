package dev.kvtier.realio.device;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a device's bytes lie: {@code sizeBytes} of {@code path} from {@code baseOffset} on. The device's offsets run
 * from 0 to {@code sizeBytes} (what the core addresses) and land at {@code baseOffset} and after in the file, so a
 * header kvtier keeps at the start of the file ({@code dev.kvtier.realio.files.HeaderLayout}) is never touched by
 * device I/O; the file is sized to {@code baseOffset + sizeBytes}.
 *
 * @param path       the file or block device
 * @param baseOffset where the device's offset 0 lies in it (a multiple of 4096)
 * @param sizeBytes  the device's size (a positive multiple of 4096)
 */
public record DeviceFile(Path path, long baseOffset, long sizeBytes) {
    public DeviceFile {
        Objects.requireNonNull(path, "path");
        if (baseOffset < 0 || baseOffset % DeviceGuard.ALIGN != 0) {
            throw new IllegalArgumentException("base offset must be a non-negative multiple of 4096, got "
                + baseOffset);
        }
        DeviceGuard.checkSize(sizeBytes);
        if (Long.MAX_VALUE - baseOffset < sizeBytes) {
            throw new IllegalArgumentException("base offset " + baseOffset + " + size " + sizeBytes + " overflows");
        }
    }

    /** The whole of {@code path} from its first byte (no header). */
    public static DeviceFile whole(final Path path, final long sizeBytes) {
        return new DeviceFile(path, 0, sizeBytes);
    }

    /** Bytes the file must hold: the base offset and the device. */
    public long fileBytes() {
        return baseOffset + sizeBytes;
    }
}
