package dev.kvtier.realio.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The fallback device, forced with IoChoice.FILECHANNEL, against the same contract as io_uring. */
class FileChannelDeviceTest extends DeviceContract {

    @Override
    IoChoice choice() {
        return IoChoice.FILECHANNEL;
    }

    @Override
    OpenResult open(final Path path, final long sizeBytes, final int depth) {
        return Devices.open(path, sizeBytes, depth, IoChoice.FILECHANNEL, memory);
    }

    @Test
    void shouldFindTheDirectOpenOptionByName() {
        assertEquals("com.sun.nio.file.ExtendedOpenOption.DIRECT",
            DirectFile.extendedOpenOption("DIRECT").getClass().getName() + "."
                + DirectFile.extendedOpenOption("DIRECT"));
        assertNull(DirectFile.extendedOpenOption("NO_SUCH_OPTION"));
    }

    @Test
    void shouldBeTheFileChannelImplementation() {
        assertEquals("filechannel", device.kind());
        assertEquals(FILE_BYTES, device.capacityBytes());
    }

    @Test
    void shouldStopItsWorkerThreadsOnClose() {
        final long before = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("kvtier-filechannel-")).count();
        device.close();
        final long after = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("kvtier-filechannel-")).count();
        assertEquals(32, before);
        assertEquals(0, after);
        device = null;
    }
}
