package dev.kvtier.realio.testkit;

import dev.kvtier.realio.ffi.LibcKernel;
import dev.kvtier.realio.uring.UringSetup;
import org.junit.jupiter.api.Assumptions;

/** Skips a test, with the reason, where io_uring cannot be set up (seccomp, sysctl, old kernel). */
public final class Uring {
    private Uring() {}

    public static void assumeAvailable() {
        final UringSetup.Result r = UringSetup.create(LibcKernel.create(), 4);
        switch (r) {
            case UringSetup.Ready ready -> ready.ring().close();
            case UringSetup.Unavailable u -> Assumptions.abort("io_uring unavailable here: " + u.message());
        }
    }
}
