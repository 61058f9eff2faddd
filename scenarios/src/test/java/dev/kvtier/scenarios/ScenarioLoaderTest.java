package dev.kvtier.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.core.config.CommitMode;
import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.config.ReplacementKind;
import dev.kvtier.core.geometry.ModelGeometry;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.workload.PhaseSpec;
import dev.kvtier.sim.device.FaultPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioLoaderTest {
    /** A host cost profile file with the required keys only. */
    private static final String HOST_PROFILE = """
        name = "measured"
        spanNs = 1
        entryNs = 1
        ioSubmitNs = 1
        ioCompleteNs = 1
        requestNs = 1
        memcpyBytesPerSec = 1000
        dmaBytesPerSec = 1000
        """;
    private static final String MINIMAL = MinimalScenario.TEXT;

    private static String error(final String text, final String... sets) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.toml", text, List.of(sets), null))
            .getMessage();
    }

    @Test
    void shouldLoadEveryLibraryScenario() throws ScenarioException {
        for (final String name : ScenarioLoader.LIBRARY) {
            final Scenario s = ScenarioLoader.load(name, List.of());
            assertEquals(name, s.name());
            assertFalse(s.text().isBlank());
        }
    }

    @Test
    void shouldSizeThePr90TiersFromTheWorkload() throws ScenarioException {
        final Scenario s = ScenarioLoader.load("pr90-evict", List.of());
        final long slot = 2_359_296L;
        assertEquals(slot, s.spec().core().slotBytes());
        assertEquals(102_400L * slot * 105 / 100 / slot, s.spec().core().l2Slots());
        assertEquals((long) (102_400L * slot * 0.90) / 4096 * 4096, s.spec().core().l1Bytes());
        assertEquals(200, s.spec().workload().prompts());
        assertEquals(512, s.spec().workload().blocksPerPrompt());
        assertEquals(List.of("cold", "warm"), s.spec().workload().phases().stream().map(PhaseSpec::name).toList());
        assertTrue(s.spec().core().coalesceStoreSpans());
        assertFalse(ScenarioLoader.load("pr90-evict-per-slot", List.of()).spec().core().coalesceStoreSpans());
    }

    @Test
    void shouldApplySetOverrides() throws ScenarioException {
        final Scenario s = ScenarioLoader.load("prefix-sharing-zipf", List.of("core.coalesceStoreSpans=false",
            "workload.prompts=10", "phase.1.requests=7", "sim.device=ci-ext4", "core.replacement=lru"));
        assertFalse(s.spec().core().coalesceStoreSpans());
        assertEquals(10, s.spec().workload().prompts());
        assertEquals(7, s.spec().workload().phases().get(1).requests());
        assertEquals(DeviceProfile.CI_EXT4, s.sim().device());
        assertEquals(ReplacementKind.LRU, s.spec().core().replacement());
        assertEquals("false", s.knobs().get("core.coalesceStoreSpans"));
    }

    /**
     * Whether the engine's work shares the server's thread: off in the bundled profiles, read from a host profile
     * file (calibrate writes it on), and overridable in {@code [host]} like every other host field.
     */
    @Test
    void shouldReadWhetherTheEngineSharesTheServersThread(@TempDir final Path dir) throws Exception {
        assertFalse(ScenarioLoader.parse("t.toml", MINIMAL, List.of(), null).sim().host().engineOnServerThread());
        Files.writeString(dir.resolve("own.toml"), HOST_PROFILE);
        Files.writeString(dir.resolve("shared.toml"), HOST_PROFILE + "engineOnServerThread = true\n");
        assertFalse(ScenarioLoader.parse("t.toml", MINIMAL, List.of("sim.host=own.toml"), dir).sim().host()
            .engineOnServerThread());
        assertTrue(ScenarioLoader.parse("t.toml", MINIMAL, List.of("sim.host=shared.toml"), dir).sim().host()
            .engineOnServerThread());
        final Scenario overridden = ScenarioLoader.parse("t.toml", MINIMAL + "[host]\nengineOnServerThread = true\n",
            List.of(), null);
        assertTrue(overridden.sim().host().engineOnServerThread());
        assertEquals("java-core+overrides", overridden.sim().host().name());
        assertFalse(ScenarioLoader.parse("t.toml", MINIMAL, List.of("sim.host=shared.toml",
            "host.engineOnServerThread=false"), dir).sim().host().engineOnServerThread());
    }

    /** A store's checksum of slots it just copied: 0 (as a read-back's) unless a profile or [host] sets it. */
    @Test
    void shouldReadTheChecksumRateOfCopiedSlots(@TempDir final Path dir) throws Exception {
        assertEquals(0, ScenarioLoader.parse("t.toml", MINIMAL, List.of(), null).sim().host()
            .checksumCopiedBytesPerSec());
        Files.writeString(dir.resolve("h.toml"), HOST_PROFILE + "checksumBytesPerSec = 4000\n"
            + "checksumCopiedBytesPerSec = 8000\n");
        final HostCostProfile h = ScenarioLoader.parse("t.toml", MINIMAL, List.of("sim.host=h.toml"), dir).sim()
            .host();
        assertEquals(8000, h.checksumCopiedBytesPerSec());
        assertEquals(HostCostProfile.chargeNs(8000, 8000), h.checksumNs(8000, true));
        assertEquals(HostCostProfile.chargeNs(8000, 4000), h.checksumNs(8000, false));
        assertEquals(9000, ScenarioLoader.parse("t.toml", MINIMAL, List.of("sim.host=h.toml",
            "host.checksumCopiedBytesPerSec=9000"), dir).sim().host().checksumCopiedBytesPerSec());
    }

    /** The cost of a copy besides its bytes: 0 unless a profile or [host] sets it. */
    @Test
    void shouldReadTheCostOfACopy(@TempDir final Path dir) throws Exception {
        assertEquals(0, ScenarioLoader.parse("t.toml", MINIMAL, List.of(), null).sim().host().copyOpNs());
        Files.writeString(dir.resolve("h.toml"), HOST_PROFILE + "copyOpNs = 160000\n");
        final HostCostProfile h = ScenarioLoader.parse("t.toml", MINIMAL, List.of("sim.host=h.toml"), dir).sim()
            .host();
        assertEquals(160_000, h.copyOpNs());
        assertEquals(HostCostProfile.chargeNs(8000, h.memcpyBytesPerSec()) + 160_000,
            h.copyNs(8000, h.memcpyBytesPerSec()));
        assertEquals(7, ScenarioLoader.parse("t.toml", MINIMAL, List.of("sim.host=h.toml", "host.copyOpNs=7"), dir)
            .sim().host().copyOpNs());
    }

    /** The loop's other work in proportion to its byte work: 0 unless a profile or [host] sets it; at most all. */
    @Test
    void shouldReadTheOtherWorkPerByteWork(@TempDir final Path dir) throws Exception {
        assertEquals(0, ScenarioLoader.parse("t.toml", MINIMAL, List.of(), null).sim().host().otherWorkPpm());
        Files.writeString(dir.resolve("h.toml"), HOST_PROFILE + "otherWorkPpm = 25000\n");
        final HostCostProfile h = ScenarioLoader.parse("t.toml", MINIMAL, List.of("sim.host=h.toml"), dir).sim()
            .host();
        assertEquals(25_000, h.otherWorkPpm());
        assertEquals(1_025_000, h.withOtherWork(1_000_000));
        assertEquals(7, ScenarioLoader.parse("t.toml", MINIMAL, List.of("sim.host=h.toml", "host.otherWorkPpm=7"),
            dir).sim().host().otherWorkPpm());
        Files.writeString(dir.resolve("bad.toml"), HOST_PROFILE + "otherWorkPpm = 1000001\n");
        final ScenarioException e = assertThrows(ScenarioException.class,
            () -> ScenarioLoader.parse("t.toml", MINIMAL, List.of("sim.host=bad.toml"), dir));
        assertTrue(e.getMessage().contains("otherWorkPpm"), e.getMessage());
    }

    @Test
    void shouldTakeTheCoreDefaultsFromTheConfigBuilder() throws ScenarioException {
        final CoreConfig core = ScenarioLoader.parse("t.toml", MINIMAL, List.of(), null).spec().core();
        assertEquals(ModelGeometry.QWEN3_8B_BF16.slotBytes(), core.slotBytes());
        assertEquals(CoreConfig.builder(core.slotBytes()).build(), core);
        final long slot = core.slotBytes();
        final CoreConfig small = ScenarioLoader.parse("t.toml", MINIMAL + "[core]\nl2Bytes = " + 64 * slot
            + "\nstagingBatchBytes = " + 3 * slot + "\n", List.of(), null).spec().core();
        assertEquals(64 * slot, small.l1Bytes(), "L1 = min(1 GiB, L2)");
        assertEquals(6 * slot, small.stagingPoolBytes(), "two staging batches");
    }

    @Test
    void shouldSpellEnumKnobsInLowerCaseWithDashes() throws ScenarioException {
        final CoreConfig core = ScenarioLoader.parse("t.toml", MINIMAL, List.of("core.replacement=prefix-lru",
            "core.commitMode=durable"), null).spec().core();
        assertEquals(ReplacementKind.PREFIX_LRU, core.replacement());
        assertEquals(CommitMode.DURABLE, core.commitMode());
        assertEquals("t.toml: key 'core.replacement' must be \"lru\" or \"prefix-lru\"",
            error(MINIMAL + "[core]\nreplacement = \"PREFIX_LRU\"\n"));
        assertEquals("t.toml: key 'core.commitMode' must be \"l1\" or \"durable\"",
            error(MINIMAL + "[core]\ncommitMode = \"fsync\"\n"));
    }

    @Test
    void shouldNameTheFileTheKeyAndTheProblem() {
        final String m = error(MINIMAL + "[core]\nl1Fraction = \"lots\"\n");
        assertEquals("t.toml: key 'core.l1Fraction' must be a number, got \"lots\"", m);
    }

    @Test
    void shouldRejectUnknownKeys() {
        final String m = error(MINIMAL + "[core]\ncoalesceStoreSpan = true\n");
        assertTrue(m.startsWith("t.toml: key 'core.coalesceStoreSpan' is not a known key"), m);
    }

    @Test
    void shouldRejectUnknownTables() {
        assertTrue(error(MINIMAL + "[cores]\nx = 1\n").contains("key 'cores' is not a known table"));
    }

    @Test
    void shouldRejectOutOfRangeValues() {
        assertTrue(error(MINIMAL + "[core]\nconcurrentIos = 0\n").contains("key 'core.concurrentIos' must be in [1"));
    }

    @Test
    void shouldRejectBothBytesAndFraction() {
        assertTrue(error(MINIMAL + "[core]\nl1Bytes = 8192\nl1Fraction = 0.5\n")
            .contains("key 'core.l1Fraction' cannot be set together with l1Bytes"));
    }

    @Test
    void shouldRejectMalformedToml() {
        final String e = error("[scenario\nname = 1");
        assertTrue(e.startsWith("t.toml:1:10: not valid TOML"), e);
    }

    @Test
    void shouldPointAtTheLineColumnAndKeyOfATomlSyntaxError() {
        final String e = error(MINIMAL + "[core]\nl1Fraction = 0.5\nheadroomRatio = \"20\n");
        final int line = (int) (MINIMAL + "[core]\nl1Fraction = 0.5\n").lines().count() + 1;
        assertTrue(e.startsWith("t.toml:" + line + ":"), e);
        assertTrue(e.contains("not valid TOML at key 'core.headroomRatio'"), e);
        assertEquals(1, e.lines().count(), e);
    }

    @Test
    void shouldRequireTheModelAndAPhase() {
        assertTrue(error("[scenario]\nname = \"x\"\n").contains("[model]"));
        assertTrue(error(MINIMAL.replace("[[phase]]\nname = \"cold\"\nrequests = 4\n", ""))
            .contains("needs at least one [[phase]]"));
    }

    @Test
    void shouldRejectAnUnalignedModel() {
        assertTrue(error(MINIMAL.replace("name = \"m\"", "name = \"m\"\nheadDim = 100\nlayers = 1\nkvHeads = 1"))
            .contains("not a multiple of 4096"));
    }

    @Test
    void shouldRejectABadSet() {
        assertTrue(error(MINIMAL, "nokey").contains("--set 'nokey': expected key=value"));
        assertTrue(error(MINIMAL, "phase.9.requests=1").contains("has no phase 9"));
    }

    @Test
    void shouldNameAMissingFile() {
        final String m = assertThrows(ScenarioException.class, () -> ScenarioLoader.load("/nope/x.toml", List.of()))
            .getMessage();
        assertTrue(m.startsWith("/nope/x.toml: no such scenario file"), m);
    }

    /** A device profile file's required keys. */
    private static final String DISK = """
        name = "my-disk"
        readLatencyNs = 100000
        writeLatencyNs = 200000
        flushLatencyNs = 1000000
        readBytesPerSec = 1000000000
        writeBytesPerSec = 2000000000
        parallelism = 8
        """;

    @Test
    void shouldLoadADeviceProfileFile(@TempDir final Path dir) throws IOException, ScenarioException {
        Files.writeString(dir.resolve("disk.toml"), DISK + "[[measurement]]\nop = \"read\"\n");
        Files.writeString(dir.resolve("s.toml"), MINIMAL + "[sim]\ndevice = \"disk.toml\"\n");
        final Scenario s = ScenarioLoader.load(dir.resolve("s.toml").toString(), List.of());
        assertEquals("my-disk", s.sim().device().name());
        assertEquals(8, s.sim().device().parallelism());
        assertEquals(0, s.sim().device().drainBytesPerSec(), "a profile without the key models no write-back cache");
    }

    @Test
    void shouldReadADrainRateAndRefuseANegativeOne(@TempDir final Path dir) throws IOException, ScenarioException {
        Files.writeString(dir.resolve("s.toml"), MINIMAL + "[sim]\ndevice = \"disk.toml\"\n");
        Files.writeString(dir.resolve("disk.toml"), DISK + "drainBytesPerSec = 900000000\n");
        assertEquals(900_000_000L,
            ScenarioLoader.load(dir.resolve("s.toml").toString(), List.of()).sim().device().drainBytesPerSec());
        Files.writeString(dir.resolve("disk.toml"), DISK + "drainBytesPerSec = -1\n");
        final String m = assertThrows(ScenarioException.class,
            () -> ScenarioLoader.load(dir.resolve("s.toml").toString(), List.of())).getMessage();
        assertTrue(m.contains("drainBytesPerSec"), m);
    }

    @Test
    void shouldReadADrainDelayAndRefuseOneWithoutARate(@TempDir final Path dir) throws IOException, ScenarioException {
        Files.writeString(dir.resolve("s.toml"), MINIMAL + "[sim]\ndevice = \"disk.toml\"\n");
        Files.writeString(dir.resolve("disk.toml"), DISK + "drainBytesPerSec = 900000000\ndrainDelayNs = 2500000000\n");
        assertEquals(2_500_000_000L,
            ScenarioLoader.load(dir.resolve("s.toml").toString(), List.of()).sim().device().drainDelayNs());
        Files.writeString(dir.resolve("disk.toml"), DISK + "drainDelayNs = 2500000000\n");
        final String m = assertThrows(ScenarioException.class,
            () -> ScenarioLoader.load(dir.resolve("s.toml").toString(), List.of())).getMessage();
        assertTrue(m.contains("drainDelayNs") && m.contains("without a drain rate"), m);
    }

    @Test
    void shouldRejectAProfileWithAMissingKey(@TempDir final Path dir) throws IOException {
        Files.writeString(dir.resolve("disk.toml"), "name = \"d\"\n");
        Files.writeString(dir.resolve("s.toml"), MINIMAL + "[sim]\ndevice = \"disk.toml\"\n");
        final String m = assertThrows(ScenarioException.class,
            () -> ScenarioLoader.load(dir.resolve("s.toml").toString(), List.of())).getMessage();
        assertTrue(m.contains("key 'device.readLatencyNs' is required"), m);
    }

    @Test
    void shouldReadEveryFaultKey() throws ScenarioException {
        final FaultPlan f = ScenarioLoader.parse("t.toml", MINIMAL + """
            [faults]
            readErrorsPerMillion = 1
            writeErrorsPerMillion = 2
            spikesPerMillion = 3
            spikeNs = 4
            slowdown = 5
            untilSeconds = 6
            corruptionsPerMillion = 7
            misdirectsPerMillion = 8
            metaFullAfterWrites = 9
            volatileWriteCache = true
            crashAtEvent = 10
            """, List.of(), null).sim().faults();
        assertEquals(new FaultPlan(1, 2, 3, 4, 5, 6_000_000_000L, 7, 8, 9, true, 10), f);
    }

    @Test
    void shouldDefaultTheNewFaultKeysToNone() throws ScenarioException {
        final FaultPlan f = ScenarioLoader.parse("t.toml", MINIMAL + "[faults]\nwriteErrorsPerMillion = 5\n",
            List.of(), null).sim().faults();
        assertEquals(new FaultPlan(0, 5, 0, 10_000_000, 1, 3_600_000_000_000L), f);
        assertEquals(0, f.corruptionsPerMillion() + f.misdirectsPerMillion() + f.metaFullAfterWrites());
        assertFalse(f.volatileWriteCache());
        assertEquals(-1, f.crashAtEvent());
        assertFalse(f.writeCacheEnabled());
        assertEquals(FaultPlan.NONE, ScenarioLoader.parse("t.toml", MINIMAL, List.of(), null).sim().faults());
    }

    @Test
    void shouldSetTheNewFaultKeysFromTheCommandLine() throws ScenarioException {
        final FaultPlan f = ScenarioLoader.parse("t.toml", MINIMAL, List.of("faults.corruptionsPerMillion=1000",
            "faults.misdirectsPerMillion=20", "faults.crashAtEvent=5000", "faults.metaFullAfterWrites=3"), null)
            .sim().faults();
        assertEquals(1000, f.corruptionsPerMillion());
        assertEquals(20, f.misdirectsPerMillion());
        assertEquals(3, f.metaFullAfterWrites());
        assertEquals(5000, f.crashAtEvent());
        assertTrue(f.writeCacheEnabled(), "a crash implies the volatile write cache");
        assertTrue(f.any());
    }

    @Test
    void shouldRejectBadNewFaultValues() {
        assertEquals("t.toml: key 'faults.corruptionsPerMillion' must be in [0, 1000000], got 1000001",
            error(MINIMAL + "[faults]\ncorruptionsPerMillion = 1000001\n"));
        assertTrue(error(MINIMAL + "[faults]\nmisdirectsPerMillion = -1\n")
            .contains("key 'faults.misdirectsPerMillion' must be in [0, 1000000]"));
        assertTrue(error(MINIMAL + "[faults]\nmetaFullAfterWrites = -2\n")
            .contains("key 'faults.metaFullAfterWrites' must be in [0, "));
        assertEquals("t.toml: key 'faults.volatileWriteCache' must be true or false, got \"yes\"",
            error(MINIMAL + "[faults]\nvolatileWriteCache = \"yes\"\n"));
        assertTrue(error(MINIMAL + "[faults]\ncrashAtEvent = -2\n")
            .contains("key 'faults.crashAtEvent' must be in [-1, "));
        assertTrue(error(MINIMAL + "[faults]\ncrashAtEvent = 1.5\n")
            .contains("key 'faults.crashAtEvent' must be a whole number"));
    }

    @Test
    void shouldRejectUnknownFaultKeys() {
        final String m = error(MINIMAL + "[faults]\ncorruptionPerMillion = 5\n");
        assertTrue(m.startsWith("t.toml: key 'faults.corruptionPerMillion' is not a known key; did you mean "
            + "'faults.corruptionsPerMillion'? (known: "), m);
        assertTrue(m.contains("corruptionsPerMillion") && m.contains("volatileWriteCache")
            && m.contains("crashAtEvent"), m);
    }

    @Test
    void shouldAcceptTheNewFaultKeysInASwarm() throws ScenarioException {
        final Scenario s = ScenarioLoader.parse("t.toml", MINIMAL + """
            [swarm]
            "faults.corruptionsPerMillion" = [0, 10000]
            "faults.volatileWriteCache" = [false, true]
            """, List.of(), null);
        assertEquals(List.of("0", "10000"), s.swarm().get("faults.corruptionsPerMillion"));
        assertEquals(List.of("false", "true"), s.swarm().get("faults.volatileWriteCache"));
        final Scenario drawn = ScenarioLoader.parse("t.toml", s.text(), List.of("faults.volatileWriteCache=true",
            "faults.corruptionsPerMillion=10000"), null);
        assertTrue(drawn.sim().faults().volatileWriteCache());
        assertEquals(10_000, drawn.sim().faults().corruptionsPerMillion());
    }
}
