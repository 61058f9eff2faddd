package dev.kvtier.realio.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.port.IoOp;
import dev.kvtier.realio.calibrate.Measurement;
import dev.kvtier.realio.testkit.Scratch;
import dev.kvtier.realio.testkit.Uring;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** BenchIo's quick mode runs without fio; fio's JSON is parsed from a recorded sample. */
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
        }
    }

    @Test
    void shouldReadBandwidthAndIopsFromFioJson() {
        final String json = """
            {"jobs" : [ { "jobname" : "kvtier",
              "read" : { "io_bytes" : 306253824, "io_kbytes" : 299076, "bw_bytes" : 305642538, "bw" : 298479,
                "iops" : 74619.760479, "runtime" : 1002,
                "lat_ns" : { "min" : 100, "max" : 9000, "mean" : 427.5, "stddev" : 1.0 } },
              "write" : { "io_bytes" : 0, "io_kbytes" : 0, "bw_bytes" : 0, "bw" : 0, "iops" : 0.000000 } } ] }
            """;
        final Measurement m = FioRunner.parse(json, IoOp.READ, 4096, 32);
        assertEquals(305642538L, m.bytesPerSec());
        assertEquals(74619L, m.iops());
        assertEquals(427L, m.meanLatencyNs());
        assertEquals(0L, FioRunner.parse(json, IoOp.WRITE, 4096, 32).bytesPerSec());
    }
}
