package dev.kvtier.realio.device;

import java.util.Objects;

/** The outcome of opening a device: a device, or one line saying why not. */
public sealed interface OpenResult permits OpenResult.Opened, OpenResult.Failed {

    /** Why a device could not be opened. */
    enum Failure {
        /** io_uring cannot be set up here (EPERM, ENOSYS, disabled by sysctl, too old); a fallback may work. */
        URING_UNAVAILABLE,
        /** The file system or device refuses O_DIRECT. */
        NO_DIRECT_IO,
        /** The file or device cannot be opened, sized or registered (permissions, space, ...). */
        OPEN_FAILED
    }

    /**
     * A working device.
     *
     * @param device the device, owned by the caller
     * @param notice a one-line notice for the user (a fallback was taken), or empty
     */
    record Opened(PolledDevice device, String notice) implements OpenResult {
        public Opened {
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(notice, "notice");
        }
    }

    /**
     * No device.
     *
     * @param failure what kind of failure
     * @param message one line naming the path, the call and the errno
     */
    record Failed(Failure failure, String message) implements OpenResult {
        public Failed {
            Objects.requireNonNull(failure, "failure");
            if (message.isBlank() || message.contains("\n")) {
                throw new IllegalArgumentException("a failure message is one non-empty line: " + message);
            }
        }
    }

    /** The device, or an IllegalStateException with the failure's message (for callers that cannot go on). */
    default PolledDevice orThrow() {
        return switch (this) {
            case Opened o -> o.device();
            case Failed f -> throw new IllegalStateException(f.message());
        };
    }
}
