package dev.kvtier.scenarios;

import dev.kvtier.core.config.CoreConfig;
import dev.kvtier.core.config.StagingLayout;
import dev.kvtier.core.geometry.Alignment;
import dev.kvtier.core.geometry.ModelGeometry;
import dev.kvtier.harness.profile.DeviceProfile;
import dev.kvtier.harness.profile.HostCostProfile;
import dev.kvtier.harness.run.RunSpec;
import dev.kvtier.harness.workload.PhaseSpec;
import dev.kvtier.harness.workload.EngineSpec;
import dev.kvtier.harness.workload.WorkloadSpec;
import dev.kvtier.sim.device.FaultPlan;
import dev.kvtier.sim.run.SimModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.toml.TomlMapper;

/**
 * Loads a scenario from the library (by name) or a file (by path), applies {@code --set key=value} overrides, and
 * validates every key: a problem is a {@link ScenarioException} whose one-line message names the source, the key
 * and the problem. Tables: {@code [scenario]}, {@code [model]}, {@code [workload]}, {@code [[phase]]},
 * {@code [core]}, {@code [sim]}, {@code [faults]}, {@code [gate]}, {@code [swarm]}, {@code [signoff]},
 * {@code [coverage]}; docs/scenarios.md documents every key and its default.
 */
public final class ScenarioLoader {
    /** Names of the bundled scenarios. */
    public static final List<String> LIBRARY = List.of("pr90-evict", "pr90-evict-per-slot", "pr90-evict-small",
        "prefix-sharing-zipf", "rare-paths", "mooncake-conversation-10min", "mooncake-swarm");

    /** The tables a scenario may hold, in the order the loader reads them. */
    private static final List<String> TABLES = List.of("scenario", "model", "workload", "engine", "phase", "core",
        "sim", "host", "faults", "gate", "swarm", "signoff", "coverage");
    /** Gate metrics: the phase times, and TTFT mean or p99 of a phase ({@code ttft.PHASE.mean|p99}). */
    private static final java.util.regex.Pattern GATE_METRIC = java.util.regex.Pattern.compile(
        "coldPhaseNanos|warmPhaseNanos|ttft\\.[^.]+\\.(mean|p99)");
    private static final TomlMapper TOML = new TomlMapper();

    private ScenarioLoader() {}

    /**
     * Loads {@code nameOrPath} with overrides like {@code core.coalesceStoreSpans=false}; its {@code [swarm]} values
     * checked as {@link SwarmCheck#FILE}.
     */
    public static Scenario load(final String nameOrPath, final List<String> sets) throws ScenarioException {
        return load(nameOrPath, sets, SwarmCheck.FILE);
    }

    /** As {@link #load(String, List)}, its {@code [swarm]} values checked as {@code check} says. */
    public static Scenario load(final String nameOrPath, final List<String> sets,
                                final SwarmCheck check) throws ScenarioException {
        final String text;
        final String source;
        final Path base;
        if (LIBRARY.contains(nameOrPath)) {
            source = "library:" + nameOrPath;
            text = Limits.library(nameOrPath);
            base = null;
        } else {
            final Path p = Path.of(nameOrPath);
            source = nameOrPath;
            text = Limits.read(p, nameOrPath, LIBRARY);
            base = p.toAbsolutePath().getParent();
        }
        return parse(source, text, sets, base, check);
    }

    /** As {@link #parse(String, String, List, Path, SwarmCheck)}, checking swarm values as {@link SwarmCheck#FILE}. */
    public static Scenario parse(final String source, final String text, final List<String> sets,
                                 final Path base) throws ScenarioException {
        return parse(source, text, sets, base, SwarmCheck.FILE);
    }

    /**
     * Parses scenario text (from {@code source}, for messages) as {@link #load(String, List, SwarmCheck)} does;
     * relative profile paths resolve against base.
     */
    public static Scenario parse(final String source, final String text, final List<String> sets, final Path base,
                                 final SwarmCheck check) throws ScenarioException {
        Limits.text(source, text);
        final ObjectNode root;
        try {
            final JsonNode tree = TOML.readTree(text);
            if (tree == null || !tree.isObject()) {
                throw new ScenarioException(source + ": not a TOML table");
            }
            root = (ObjectNode) tree;
        } catch (final JacksonException e) {
            throw new ScenarioException(TomlErrors.describe(source, text, e));
        }
        final ObjectNode parsed = check == SwarmCheck.NONE ? null : root.deepCopy();
        Overrides.apply(source, root, sets);
        final Scenario s = new Builder(source, text, root, base).build();
        if (check != SwarmCheck.NONE) {
            SwarmTable.check(source, s.swarm(), sets, check, drawn -> {
                final ObjectNode variant = parsed.deepCopy();
                Overrides.apply(source, variant, drawn);
                new Builder(source, text, variant, base).build();
            });
        }
        return s;
    }

    /** What the {@code [sim]} table holds: the simulator's model and the run's bounds (liveness, TTFT; 0 none). */
    private record SimTable(SimModel model, long livenessBoundNs, long ttftBoundNs) {}

    private static final class Builder {
        private final String source;
        private final String text;
        private final ObjectNode root;
        private final Path base;
        private final SortedMap<String, String> knobs = new TreeMap<>();

        Builder(final String source, final String text, final ObjectNode root, final Path base) {
            this.source = source;
            this.text = text;
            this.root = root;
            this.base = base;
        }

        Scenario build() throws ScenarioException {
            for (final String table : root.propertyNames()) {
                if (!TABLES.contains(table)) {
                    throw new ScenarioException(source + ": key '" + table + "' is not a known table"
                        + DidYouMean.hint(table, TABLES, t -> t) + " (known: " + String.join(", ", TABLES) + ")");
                }
            }
            final Section meta = section("scenario");
            final String name = meta.requiredString("name");
            meta.string("description", "");
            meta.rejectUnknown();
            Limits.name(source, name);
            final ModelGeometry model = model();
            final WorkloadSpec workload = workload(model);
            final CoreConfig core = core(model, workload);
            final SimTable sim = sim();
            Limits.run(source, core, workload.engine().stepFixedNs(), sim.livenessBoundNs(), sim.ttftBoundNs());
            final RunSpec spec = new RunSpec(name, core, workload, sim.livenessBoundNs(), sim.ttftBoundNs());
            final Scenario.Gate gate = gate();
            knobs.put("scenario.name", name);
            final Section cov = section("coverage");
            final long minSeeds = cov.longValue("minSeeds", 1, 1, Long.MAX_VALUE);
            return new Scenario(name, source, text, model, spec, sim.model(), knobs, gate,
                SwarmTable.read(source, root.get("swarm")), signoff(), ExtraTables.required(cov), minSeeds);
        }

        private Section section(final String name) throws ScenarioException {
            return new Section(source, name, root.get(name));
        }

        private ModelGeometry model() throws ScenarioException {
            final Section s = section("model");
            if (!s.present()) {
                throw new ScenarioException(source + ": table '[model]' is required");
            }
            final ModelGeometry d = ModelPresets.defaults(source, s.string("preset", null));
            final String name = s.has("preset") ? s.string("name", d.name()) : s.requiredString("name");
            final int kvHeads = s.intValue("kvHeads", d.kvHeads(), 1, 1 << 16);
            final int headDim = s.intValue("headDim", d.headDim(), 1, 1 << 16);
            final int layers = s.intValue("layers", d.layers(), 1, 1 << 12);
            final int blockTokens = s.intValue("blockTokens", d.blockTokens(), 1, 1 << 16);
            final int dtypeBytes = s.intValue("dtypeBytes", d.dtypeBytes(), 1, 8);
            final int kvPerHead = s.intValue("kvPerHead", d.kvPerHead(), 1, 2);
            s.rejectUnknown();
            Limits.slot(source, new long[] {kvHeads, headDim, kvPerHead, layers, blockTokens, dtypeBytes});
            final ModelGeometry g = ModelPresets.checked(source, () -> new ModelGeometry(name, kvHeads, headDim, layers,
                blockTokens, dtypeBytes, kvPerHead));
            record("model", "slotBytes", g.slotBytes());
            return g;
        }

        private WorkloadSpec workload(final ModelGeometry model) throws ScenarioException {
            final Section s = section("workload");
            if (s.has("trace")) {
                final TraceWorkload.Parts t = TraceWorkload.read(source, s, model.blockTokens(), base,
                    root.has("phase"), knobs);
                Limits.blocks(source, t.trace().maxInputTokens(), model.blockTokens());
                final EngineSpec e = EngineTable.read(section("engine"), t.trace().maxInputTokens()
                    / model.blockTokens(), true, knobs);
                return WorkloadSpec.ofTrace(t.trace(), model.blockTokens(), t.modelId(), e);
            }
            final int prompts = s.intValue("prompts", 200, 1, 1_000_000);
            final int inputTokens = s.intValue("inputTokens", 8192, 1, 1 << 24);
            final int concurrency = s.intValue("concurrency", 8, 1, 4096);
            final int shared = s.intValue("sharedPrefixTokens", 0, 0, inputTokens);
            final int groups = s.intValue("prefixGroups", 1, 1, prompts);
            final int modelId = s.intValue("modelId", 1, 0, Integer.MAX_VALUE);
            if (s.has("prefillNsPerToken")) {
                throw s.fail("prefillNsPerToken", "moved to the [engine] table (engine.prefillNsPerToken)");
            }
            if (s.has("firstTokenNs")) {
                throw s.fail("firstTokenNs", "was replaced by engine.stepFixedNs (the engine model's fixed GPU time"
                    + " a step)");
            }
            s.rejectUnknown();
            if (inputTokens < model.blockTokens()) {
                throw s.fail("inputTokens", "must hold at least one block of " + model.blockTokens() + " tokens");
            }
            Limits.blocks(source, inputTokens, model.blockTokens());
            final List<PhaseSpec> phases = phases();
            final EngineSpec engine = EngineTable.read(section("engine"), inputTokens / model.blockTokens(), false,
                knobs);
            record("workload", "prompts", prompts);
            record("workload", "inputTokens", inputTokens);
            record("workload", "concurrency", concurrency);
            record("workload", "sharedPrefixTokens", shared);
            record("workload", "prefixGroups", groups);
            record("workload", "modelId", modelId);
            return new WorkloadSpec(prompts, inputTokens, model.blockTokens(), concurrency, shared, groups, modelId,
                phases, engine);
        }

        private List<PhaseSpec> phases() throws ScenarioException {
            final JsonNode node = root.get("phase");
            if (node == null || !node.isArray() || node.isEmpty()) {
                throw new ScenarioException(source + ": key 'phase' needs at least one [[phase]] table");
            }
            final List<PhaseSpec> out = new ArrayList<>();
            for (int i = 0; i < node.size(); i++) {
                final Section s = new Section(source, "phase." + i, node.get(i));
                final String name = s.requiredString("name");
                final int requests = s.intValue("requests", 0, 1, 10_000_000);
                if (requests == 0) {
                    throw s.fail("requests", "is required");
                }
                final String order = s.string("order", "sequential");
                final double z = s.fraction("zipfExponent", 0);
                s.rejectUnknown();
                final PhaseSpec.Order o = switch (order) {
                    case "sequential" -> PhaseSpec.Order.SEQUENTIAL;
                    case "zipf" -> PhaseSpec.Order.ZIPF;
                    default -> throw s.fail("order", "must be \"sequential\" or \"zipf\", got \"" + order + "\"");
                };
                if (o == PhaseSpec.Order.ZIPF && z == 0) {
                    throw s.fail("zipfExponent", "is required with order = \"zipf\"");
                }
                out.add(new PhaseSpec(name, requests, o, z));
                knobs.put("phase." + i, name + ":" + requests + ":" + order + (z > 0 ? ":" + z : ""));
            }
            return out;
        }

        /** {@code [core]}: every default comes from {@link CoreConfig#builder}, the one place that holds them. */
        private CoreConfig core(final ModelGeometry model, final WorkloadSpec w) throws ScenarioException {
            final Section s = section("core");
            final long slot = model.slotBytes();
            final long kv = w.isTrace() ? TraceWorkload.kvBytes(source, w.trace(), model.blockTokens(), slot)
                : Limits.kvBytes(source, w.prompts(), w.blocksPerPrompt(), slot);
            final CoreConfig.Builder b = CoreConfig.builder(slot);
            b.l2Bytes(size(s, "l2Bytes", "l2Fraction", kv, b.l2Bytes()) / slot * slot);
            b.l1Bytes(Alignment.down(size(s, "l1Bytes", "l1Fraction", kv, b.l1Bytes())));
            b.headroomRatio(s.intValue("headroomRatio", b.headroomRatio(), 1, 1 << 20));
            b.groupedWriteBatchBytes(s.bytesValue("groupedWriteBatchBytes", b.groupedWriteBatchBytes(), 4096,
                1L << 40));
            b.coalesceStoreSpans(s.bool("coalesceStoreSpans", b.coalesceStoreSpans()));
            b.concurrentIos(s.intValue("concurrentIos", b.concurrentIos(), 1, 4096));
            b.readBatchMax(s.intValue("readBatchMax", b.readBatchMax(), 1, 4096));
            b.maxReadBytes(s.bytesValue("maxReadBytes", b.maxReadBytes(), 4096, 1L << 40));
            b.stagingBatchBytes(s.bytesValue("stagingBatchBytes", b.stagingBatchBytes(), slot, 1L << 40));
            b.stagingPoolBytes(s.bytesValue("stagingPoolBytes", b.stagingPoolBytes(), b.stagingBatchBytes(),
                1L << 42));
            final int poolBatches = s.intValue("stagingPoolBatches", 0, 0, 1 << 16);
            if (poolBatches > 0) { // replaces stagingPoolBytes: the swarm draws a pool of whole batches
                b.stagingPoolBytes(poolBatches * b.stagingBatchBytes());
                record("core", "stagingPoolBatches", poolBatches);
            }
            b.replacement(s.choice("replacement", b.replacement()));
            b.commitMode(s.choice("commitMode", b.commitMode()));
            b.l2Admission(s.choice("l2Admission", b.l2Admission()));
            b.stagingLayout(s.choice("stagingLayout", b.stagingLayout()));
            s.rejectUnknown();
            try {
                final CoreConfig c = b.build();
                recordCore(c);
                return c;
            } catch (final IllegalArgumentException e) {
                throw new ScenarioException(source + ": table '[core]': " + e.getMessage());
            }
        }

        private long size(final Section s, final String bytesKey, final String fractionKey, final long kv,
                          final long fallback) throws ScenarioException {
            if (s.has(bytesKey) && s.has(fractionKey)) {
                throw s.fail(fractionKey, "cannot be set together with " + bytesKey);
            }
            final long bytes = s.bytesValue(bytesKey, -1, 4096, 1L << 50);
            final double fraction = s.fraction(fractionKey, -1);
            if (bytes > 0) {
                return bytes;
            }
            if (fraction > 0) {
                return (long) (kv * fraction);
            }
            return fallback;
        }

        /** {@code [sim]}: the simulator's model, and the liveness bound (which both modes use). */
        private SimTable sim() throws ScenarioException {
            final Section s = section("sim");
            final String deviceName = s.string("device", DeviceProfile.DATACENTER_NVME.name());
            final String hostName = s.string("host", HostCostProfile.JAVA_CORE.name());
            final long maxEvents = s.longValue("maxEvents", 200_000_000, 1000, 1L << 40);
            final long bound = s.longValue("livenessBoundSeconds", 3600, 1, 1L << 30);
            final long ttftMs = s.longValue("ttftBoundMs", 0, 0, 1L << 40);
            final boolean reorder = s.bool("reorder", false);
            s.rejectUnknown();
            final DeviceProfile device = Profiles.device(source, "sim.device", deviceName, base);
            final HostCostProfile host = hostOverrides(Profiles.host(source, "sim.host", hostName, base));
            knobs.put("sim.device", device.name());
            knobs.put("sim.host", host.name());
            record("sim", "maxEvents", maxEvents);
            record("sim", "livenessBoundSeconds", bound);
            knobs.put("sim.ttftBoundMs", ttftMs == 0 ? "none" : Long.toString(ttftMs));
            if (reorder) {
                knobs.put("sim.reorder", "true"); // a knob only when on: a scenario without it keeps its digest
            }
            return new SimTable(new SimModel(device, host, faults(), maxEvents, reorder), bound * 1_000_000_000L,
                ttftMs * 1_000_000L);
        }

        /** {@code [host]} ({@link Profiles#hostOverrides}); a present table's profile is a knob. */
        private HostCostProfile hostOverrides(final HostCostProfile base) throws ScenarioException {
            final Section s = section("host");
            if (!s.present()) {
                return base;
            }
            final HostCostProfile p = Profiles.hostOverrides(s, base);
            knobs.put("host", p.toString());
            return p;
        }

        /** {@code [faults]} ({@link ExtraTables#faults}); a present table's plan is a knob. */
        private FaultPlan faults() throws ScenarioException {
            final Section s = section("faults");
            final FaultPlan plan = ExtraTables.faults(s);
            if (s.present()) {
                knobs.put("faults", plan.toString());
            }
            return plan;
        }

        private Scenario.Gate gate() throws ScenarioException {
            final Section s = section("gate");
            if (!s.present()) {
                return null;
            }
            final String baseline = Profiles.besideScenario(s.requiredString("baseline"), base, LIBRARY);
            final String metric = s.string("metric", "coldPhaseNanos");
            final double min = s.fraction("minSlowdown", 0);
            final double max = s.fraction("maxSlowdown", 0);
            s.rejectUnknown();
            if (!GATE_METRIC.matcher(metric).matches()) {
                throw s.fail("metric", "must be \"coldPhaseNanos\", \"warmPhaseNanos\", or \"ttft.PHASE.mean\""
                    + " or \"ttft.PHASE.p99\" for a phase's time to first token, got \"" + metric + "\"");
            }
            if (min == 0 && max == 0) {
                throw s.fail("minSlowdown", "or maxSlowdown is required in [gate]");
            }
            knobs.put("gate", baseline + ":" + metric + ":min=" + min + ":max=" + max);
            return new Scenario.Gate(baseline, metric, min, max);
        }

        private Scenario.Signoff signoff() throws ScenarioException {
            return SignoffSection.read(section("signoff"), knobs);
        }

        private void recordCore(final CoreConfig c) {
            record("core", "slotBytes", c.slotBytes());
            record("core", "l2Bytes", c.l2Bytes());
            record("core", "l1Bytes", c.l1Bytes());
            record("core", "headroomRatio", c.headroomRatio());
            record("core", "groupedWriteBatchBytes", c.groupedWriteBatchBytes());
            record("core", "coalesceStoreSpans", c.coalesceStoreSpans());
            record("core", "concurrentIos", c.concurrentIos());
            record("core", "readBatchMax", c.readBatchMax());
            record("core", "maxReadBytes", c.maxReadBytes());
            record("core", "stagingBatchBytes", c.stagingBatchBytes());
            record("core", "stagingPoolBytes", c.stagingPoolBytes());
            record("core", "replacement", c.replacement());
            record("core", "commitMode", c.commitMode());
            record("core", "l2Admission", c.l2Admission());
            if (c.stagingLayout() != StagingLayout.PACKED) { // recorded when drawn: packed runs keep their headers
                record("core", "stagingLayout", c.stagingLayout());
            }
        }

        private void record(final String table, final String key, final Object value) {
            knobs.put(table + "." + key, String.valueOf(value));
        }
    }
}
