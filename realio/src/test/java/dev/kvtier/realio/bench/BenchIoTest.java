package dev.kvtier.realio.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.realio.testkit.Scratch;
import dev.kvtier.realio.testkit.Uring;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** BenchIo's quick mode runs without fio, on a preconditioned file. */
class BenchIoTest {

    @Test
    void shouldPrintATableForEveryCellInQuickMode() {
        Uring.assumeAvailable();
        try (Scratch scratch = new Scratch()) {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            final int rc = BenchIo.run(scratch.file("bench.bin"), 0, 0, false, true,
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
            final String out = bytes.toString(StandardCharsets.UTF_8);
            assertEquals(0, rc, out);
            assertEquals(8, out.lines().filter(l -> l.matches("^(read|write) .*")).count(), out);
            assertTrue(out.contains("target read  64K depth 16 bandwidth >= 1.3 x FileChannel"), out);
            assertTrue(out.contains("preconditioned: all 64 MiB written in this run"), out);
        }
    }
}
