package dev.kvtier.realio.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.value.IoOp;
import dev.kvtier.realio.device.DeviceFile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** fio's JSON is parsed from a recorded sample; its command line asks for what a comparison needs. */
class FioRunnerTest {

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
        assertEquals(-1L, m.cpuNsPerIo(), "no usr_cpu/sys_cpu: not known");
    }

    @Test
    void shouldReadTheCpuTimePerIoFromTheJobsShares() {
        final String json = """
            {"jobs" : [ { "jobname" : "kvtier", "job_runtime" : 2000, "usr_cpu" : 10.0, "sys_cpu" : 30.0,
              "read" : { "bw_bytes" : 409600000, "iops" : 100000.0, "total_ios" : 200000,
                "lat_ns" : { "mean" : 300.0 } } } ] }
            """;
        assertEquals(4000L, FioRunner.parse(json, IoOp.READ, 4096, 32).cpuNsPerIo(),
            "40 % of 2 s over 200,000 I/Os is 4 us each");
    }

    @Test
    void shouldRegisterTheFileAndBuffersLikeKvtierUnlessToldNotTo() {
        final DeviceFile f = DeviceFile.whole(Path.of("/f"), 1 << 30);
        final List<String> like = FioRunner.command(f, IoOp.READ, 4096, 32, 500, false,
            FioRunner.Buffers.SMALL_PAGES);
        assertTrue(like.contains("--fixedbufs") && like.contains("--registerfiles"), like.toString());
        final List<String> plain = FioRunner.command(f, IoOp.READ, 4096, 32, 500, false,
            FioRunner.Buffers.SMALL_PAGES, FioRunner.Registration.PLAIN);
        assertTrue(!plain.contains("--fixedbufs") && !plain.contains("--registerfiles"), plain.toString());
        assertEquals("ioengine=io_uring, O_DIRECT, registered file and buffers (--fixedbufs --registerfiles), "
            + "huge-page buffers (--mem=shmhuge)",
            FioRunner.describe(FioRunner.Buffers.HUGE_PAGES,
                FioRunner.Registration.REGISTERED));
    }

    @Test
    void shouldAskForHugePagesOnlyWhenTold() {
        final List<String> small = FioRunner.command(DeviceFile.whole(Path.of("/f"), 1 << 30), IoOp.READ, 1 << 20, 8,
            500, false,
            FioRunner.Buffers.SMALL_PAGES);
        final List<String> huge = FioRunner.command(DeviceFile.whole(Path.of("/f"), 1 << 30), IoOp.WRITE, 1 << 20, 8,
            500, true,
            FioRunner.Buffers.HUGE_PAGES);
        assertTrue(small.contains("--rw=randread") && small.contains("--runtime=500ms"), small.toString());
        assertTrue(small.stream().noneMatch(a -> a.startsWith("--mem=")), small.toString());
        assertTrue(huge.contains("--rw=write") && huge.contains("--mem=shmhuge"), huge.toString());
    }

    @Test
    void shouldKeepFioOffKvtiersHeader() {
        final List<String> cmd = FioRunner.command(new DeviceFile(Path.of("/f"), 4096, 1 << 20), IoOp.WRITE, 4096,
            1, 500, true, FioRunner.Buffers.SMALL_PAGES);
        assertTrue(cmd.contains("--offset=4096") && cmd.contains("--size=1048576"), cmd.toString());
    }
}
