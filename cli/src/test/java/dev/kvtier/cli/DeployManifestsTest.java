package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.explore.Explorer;
import dev.kvtier.lab.explore.Shard;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.kvtier.scenarios.Scenario;
import dev.kvtier.scenarios.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.ParseResult;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The files under {@code deploy/} that this machine cannot run (a Kubernetes Indexed Job, a GitHub Actions workflow):
 * they parse, their command lines parse with the CLI's own picocli spec, and what they wire together agrees (shard
 * count and completions, the volume and the paths, the summaries the merge reads).
 */
class DeployManifestsTest {
    private static final Path DEPLOY = Path.of("..", "deploy");
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final Pattern K8S_VAR = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    @Test
    void shouldRunEveryShardOfTheIndexedJobWithACommandTheCliAccepts() throws IOException {
        final JsonNode job = only(DEPLOY.resolve("kubernetes/explore-job.yaml"));
        assertEquals("Job", job.get("kind").asString());
        final JsonNode spec = job.get("spec");
        assertEquals("Indexed", spec.get("completionMode").asString());
        assertEquals("Never", spec.at("/template/spec/restartPolicy").asString());
        final JsonNode container = spec.at("/template/spec/containers/0");
        assertEquals(container.get("name").asString(),
            spec.at("/podFailurePolicy/rules/0/onExitCodes/containerName").asString());
        final ExploreCommand explore = pods(job);
        assertTrue(explore.shardFromEnv && explore.keepGoing, "shards from the Job's index, every failure kept");
        final List<String> mounts = mounts(container);
        assertTrue(onVolume(explore.summary, mounts) && explore.summary.endsWith("/"), explore.summary);
        assertTrue(onVolume(explore.journals.toString(), mounts), explore.journals.toString());
        assertEquals("pr90-evict-small", explore.scenario);
    }

    /** render.sh: the Job scaled by one number, its completions, parallelism, KVTIER_SHARDS and seeds in agreement. */
    @Test
    void shouldRenderTheJobForAnyShardCountWithItsNumbersInAgreement(@TempDir final Path dir) throws Exception {
        final String template = Files.readString(DEPLOY.resolve("kubernetes/explore-job.yaml"));
        for (final String[] c : new String[][] {{"1", "7"}, {"3", "100"}, {"16", "5000"}, {"--parallelism", "8",
            "40", "1000"}}) {
            final Rendered r = render(dir, c);
            assertEquals(0, r.exit(), r.err());
            assertEquals(1, r.docs().size(), "a library scenario ships no ConfigMap");
            final JsonNode job = r.docs().getFirst();
            final int shards = Integer.parseInt(c[c.length - 2]);
            assertEquals(shards, job.at("/spec/completions").asInt());
            assertEquals(c.length == 2 ? shards : 8, job.at("/spec/parallelism").asInt());
            final ExploreCommand explore = pods(job);
            assertEquals(Long.parseLong(c[c.length - 1]), explore.seeds);
            assertEquals("pr90-evict-small", explore.scenario);
            assertEquals(template.lines().count(), r.out().lines().count(), "only values change, line for line");
        }
        final Rendered r = render(dir, "--run", "nightly-7", "2", "10", "rare-paths");
        final JsonNode container = r.docs().getFirst().at("/spec/template/spec/containers/0");
        assertEquals("rare-paths", pods(r.docs().getFirst()).scenario);
        assertEquals("nightly-7", env(container).get("KVTIER_RUN"));
    }

    /**
     * render.sh with a scenario file: a ConfigMap holding it (and the profile it names beside it) byte for byte, as
     * {@code kubectl create configmap --from-file} would, which the pods mount where explore's scenario path points.
     */
    @Test
    void shouldShipACustomScenarioInAConfigMapThePodsMount(@TempDir final Path dir) throws Exception {
        final String text = TinyScenario.text("k8s", "[sim]\ndevice = \"disk.toml\"\n")
            + "# \"quoted\", a \\ and a\ttab, \u00e9, no newline at the end";
        Files.writeString(dir.resolve("my-scenario.toml"), text);
        Files.writeString(dir.resolve("disk.toml"), TinyScenario.WRONG_PROFILE);
        final Rendered r = render(dir, "5", "2000", "my-scenario.toml", "disk.toml");
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("ConfigMap", "Job"), r.docs().stream().map(d -> d.get("kind").asString()).toList());
        final JsonNode map = r.docs().getFirst();
        final JsonNode job = r.docs().get(1);
        assertEquals(text, map.at("/data/my-scenario.toml").asString(), "the file, byte for byte");
        assertEquals(TinyScenario.WRONG_PROFILE, map.at("/data/disk.toml").asString());
        final ExploreCommand explore = pods(job);
        assertEquals(2000, explore.seeds);
        String mounted = null;
        for (final JsonNode v : job.at("/spec/template/spec/volumes")) {
            if (v.at("/configMap/name").asString("").equals(map.at("/metadata/name").asString())) {
                for (final JsonNode m : job.at("/spec/template/spec/containers/0/volumeMounts")) {
                    mounted = m.get("name").asString().equals(v.get("name").asString()) ? m.get("mountPath")
                        .asString() : mounted;
                }
            }
        }
        assertEquals(mounted + "/my-scenario.toml", explore.scenario, "explore reads the mounted ConfigMap");
        // What a pod sees under the mount: the scenario loads, with its profile beside it.
        final Path pod = Files.createDirectories(dir.resolve("pod" + mounted));
        map.get("data").properties().forEach(e -> write(pod.resolve(e.getKey()), e.getValue().asString()));
        final Scenario loaded = ScenarioLoader.load(pod.resolve("my-scenario.toml").toString(), List.of());
        assertEquals("k8s", loaded.name());
        assertEquals("hundred-times-too-slow", loaded.sim().device().name());
    }

    /** explore.sh with a stand-in kubectl: it applies what render.sh prints for its arguments, then the merge. */
    @Test
    void shouldApplyTheRenderedJobThenTheMergeOfTheSameRun(@TempDir final Path dir) throws Exception {
        final Path kubectl = Files.createDirectories(dir.resolve("bin")).resolve("kubectl");
        Files.writeString(kubectl, """
            #!/usr/bin/env bash
            # A stand-in: applied manifests go to $KUBECTL_LOG; every Job is Complete, and the merge exits 0.
            case "$1 $2" in
              "apply -f") { if [[ "$3" == - ]]; then cat; else cat "$3"; fi; echo "---"; } >>"$KUBECTL_LOG" ;;
              "get job") echo Complete ;;
              "get pods") echo 0 ;;
              "logs "*) echo "the merged report" ;;
            esac
            """);
        assertTrue(kubectl.toFile().setExecutable(true));
        Files.writeString(dir.resolve("s.toml"), TinyScenario.text("k8s", ""));
        final Path log = dir.resolve("applied.yaml");
        final ProcessBuilder pb = new ProcessBuilder("bash", DEPLOY.resolve("kubernetes/explore.sh").toAbsolutePath()
            .toString(), "run-9", "3", "30", "s.toml").directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("PATH", kubectl.getParent() + ":" + System.getenv("PATH"));
        pb.environment().put("KUBECTL_LOG", log.toString());
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.contains("the merged report") && out.contains("merge Complete, exit 0"), out);
        final List<JsonNode> applied = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(Files.readString(log))) {
            it.forEachRemaining(d -> {
                if (d != null && d.isObject()) {
                    applied.add(d);
                }
            });
        }
        assertEquals(List.of("PersistentVolumeClaim", "ConfigMap", "Job", "Job"), applied.stream()
            .map(d -> d.get("kind").asString()).toList());
        assertEquals(render(dir, "--run", "run-9", "3", "30", "s.toml").docs(), applied.subList(1, 3));
        assertEquals("run-9", env(applied.get(3).at("/spec/template/spec/containers/0")).get("KVTIER_RUN"));
    }

    @Test
    void shouldRefuseBadRenderArgumentsWithOneLine(@TempDir final Path dir) throws Exception {
        Files.writeString(dir.resolve("s.toml"), TinyScenario.text("k8s", ""));
        for (final String[] bad : new String[][] {{"0", "10"}, {"3", "abc"}, {"3"}, {"--parallelism", "4", "3", "10"},
            {"--run", "a/b", "3", "10"}, {"3", "10", "no-such-scenario"}, {"3", "10", "s.toml", "missing.toml"},
            {"3", "10", "pr90-evict-small", "s.toml"}, {"100001", "10"}}) {
            final Rendered r = render(dir, bad);
            assertEquals(2, r.exit(), String.join(" ", bad));
            assertEquals("", r.out(), "nothing to apply: " + String.join(" ", bad));
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith("render.sh: "), r.err());
        }
    }

    @Test
    void shouldMergeTheSummariesTheShardsWrite() throws IOException {
        final JsonNode shards = only(DEPLOY.resolve("kubernetes/explore-job.yaml"))
            .at("/spec/template/spec/containers/0");
        final JsonNode merge = only(DEPLOY.resolve("kubernetes/merge-job.yaml")).at("/spec/template/spec/containers/0");
        final Map<String, String> env = env(merge);
        assertEquals(env(shards).get("KVTIER_RUN"), env.get("KVTIER_RUN"), "both Jobs name the same run");
        final ParseResult parsed = parse(args(merge, env));
        final ExploreMergeCommand command = (ExploreMergeCommand) parsed.subcommand().subcommand().commandSpec()
            .userObject();
        final ExploreCommand explore = (ExploreCommand) parse(args(shards, env(shards))).subcommand().commandSpec()
            .userObject();
        assertEquals(List.of(Path.of(explore.summary)), command.inputs, "the merge reads the shards' summaries");
        assertTrue(onVolume(command.markdown.toString(), mounts(merge)));
        assertEquals(mounts(shards).getFirst(), mounts(merge).getFirst(), "the same volume at the same path");
        final JsonNode pvc = only(DEPLOY.resolve("kubernetes/results-volume.yaml"));
        assertEquals(pvc.at("/metadata/name").asString(), only(DEPLOY.resolve("kubernetes/merge-job.yaml"))
            .at("/spec/template/spec/volumes/0/persistentVolumeClaim/claimName").asString());
        assertEquals("ReadWriteMany", pvc.at("/spec/accessModes/0").asString(), "pods on several nodes share it");
    }

    @Test
    void shouldRunTheWorkflowsCommandsWithTheCli() throws IOException {
        final JsonNode workflow = only(DEPLOY.resolve("github-actions/explore.yml"));
        final JsonNode matrix = workflow.at("/jobs/explore/strategy/matrix/shard");
        final List<ExploreCommand> shards = new ArrayList<>();
        for (final JsonNode index : matrix) {
            for (final String[] cmd : kvtierSteps(workflow.at("/jobs/explore/steps"), index.asString())) {
                shards.add((ExploreCommand) parse(cmd).subcommand().commandSpec().userObject());
            }
        }
        assertEquals(matrix.size(), shards.size(), "one explore step a shard");
        for (int i = 0; i < shards.size(); i++) {
            assertEquals(new Shard(i, matrix.size()), Shard.parse(shards.get(i).shard));
            assertTrue(shards.get(i).keepGoing && shards.get(i).summary.startsWith("out/"), shards.get(i).summary);
        }
        final List<String[]> merges = kvtierSteps(workflow.at("/jobs/merge/steps"), "0");
        assertEquals(1, merges.size());
        final ExploreMergeCommand merge = (ExploreMergeCommand) parse(merges.getFirst()).subcommand().subcommand()
            .commandSpec().userObject();
        assertEquals(List.of(Path.of(shards.getFirst().summary)), merge.inputs);
        assertEquals("out", workflow.at("/jobs/explore/steps/3/with/path").asString(), "shards upload out/");
        assertEquals("out", workflow.at("/jobs/merge/steps/2/with/path").asString(), "the merge downloads to out/");
    }

    @Test
    void shouldKeepTheClusterScriptValidBash() throws IOException, InterruptedException {
        final Process p = new ProcessBuilder("bash", "-n", DEPLOY.resolve("kubernetes/explore.sh").toString())
            .redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertTrue(Files.isExecutable(DEPLOY.resolve("kubernetes/explore.sh")));
    }

    /**
     * The Job's pods, as Kubernetes runs them: KVTIER_SHARDS equals completions, each pod's explore command parses,
     * and their shards cover its seed range exactly once. The explore command.
     */
    private static ExploreCommand pods(final JsonNode job) {
        final int completions = job.at("/spec/completions").asInt();
        final JsonNode container = job.at("/spec/template/spec/containers/0");
        final Map<String, String> env = env(container);
        assertEquals(Integer.toString(completions), env.get(Shard.COUNT_ENV), "KVTIER_SHARDS must be completions");
        final ExploreCommand explore = (ExploreCommand) parse(args(container, env)).subcommand().commandSpec()
            .userObject();
        final List<Long> seeds = new ArrayList<>();
        for (int i = 0; i < completions; i++) {
            final Map<String, String> pod = new HashMap<>(env);
            pod.put(Shard.INDEX_ENV, Integer.toString(i));
            final Shard shard = Shard.fromEnv(pod);
            assertEquals(new Shard(i, completions), shard);
            seeds.addAll(Explorer.seeds(explore.from, explore.seeds, shard));
        }
        assertEquals(Explorer.seeds(explore.from, explore.seeds, Shard.ALL), seeds.stream().sorted().toList(),
            "the pods cover the range exactly once");
        return explore;
    }

    /** What render.sh printed, run in {@code dir}: its documents. */
    private record Rendered(int exit, String out, String err, List<JsonNode> docs) {}

    private static Rendered render(final Path dir, final String... args) throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>(List.of("bash", DEPLOY.resolve("kubernetes/render.sh")
            .toAbsolutePath().toString()));
        command.addAll(List.of(args));
        final Path err = Files.createTempFile(dir, "render", ".err");
        final Process p = new ProcessBuilder(command).directory(dir.toFile())
            .redirectError(ProcessBuilder.Redirect.to(err.toFile())).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final int exit = p.waitFor();
        final List<JsonNode> docs = new ArrayList<>();
        if (exit == 0) {
            try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(out)) {
                it.forEachRemaining(docs::add);
            }
        }
        return new Rendered(exit, out, Files.readString(err), docs);
    }

    private static void write(final Path file, final String text) {
        try {
            Files.writeString(file, text);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The one document of a YAML file. */
    private static JsonNode only(final Path file) throws IOException {
        final JsonNode doc = YAML.readTree(Files.readString(file));
        assertNotNull(doc, file.toString());
        return doc;
    }

    private static Map<String, String> env(final JsonNode container) {
        final Map<String, String> env = new HashMap<>();
        container.get("env").forEach(e -> env.put(e.get("name").asString(), e.get("value").asString()));
        return env;
    }

    private static List<String> mounts(final JsonNode container) {
        final List<String> out = new ArrayList<>();
        container.get("volumeMounts").forEach(m -> out.add(m.get("mountPath").asString()));
        return out;
    }

    private static boolean onVolume(final String path, final List<String> mounts) {
        return mounts.stream().anyMatch(m -> path.startsWith(m + "/") && !m.equals("/tmp"));
    }

    /** The container's args with {@code $(VAR)} expanded from its env, as Kubernetes does. */
    private static String[] args(final JsonNode container, final Map<String, String> env) {
        final List<String> out = new ArrayList<>();
        for (final JsonNode a : container.get("args")) {
            final Matcher m = K8S_VAR.matcher(a.asString());
            final StringBuilder b = new StringBuilder();
            while (m.find()) {
                assertTrue(env.containsKey(m.group(1)), "$(" + m.group(1) + ") is not in the container's env");
                m.appendReplacement(b, Matcher.quoteReplacement(env.get(m.group(1))));
            }
            m.appendTail(b);
            out.add(b.toString());
        }
        return out.toArray(String[]::new);
    }

    /** The {@code ./kvtier ...} lines of the steps, with the matrix shard and a run number filled in. */
    private static List<String[]> kvtierSteps(final JsonNode steps, final String shard) {
        final List<String[]> out = new ArrayList<>();
        for (final JsonNode step : steps) {
            final String run = step.has("run") ? step.get("run").asString().strip() : "";
            if (!run.startsWith("./kvtier ")) {
                continue;
            }
            final String line = run.replace("${{ matrix.shard }}", shard).replace("${{ github.run_number }}", "7");
            assertFalse(line.contains("${{") || line.contains("\n"), line);
            final String[] words = line.split("\\s+", -1);
            out.add(java.util.Arrays.copyOfRange(words, 1, words.length));
        }
        return out;
    }

    /** The manifests run the tag the image is built with ({@code kvtier.image.tag} in the parent pom). */
    @Test
    void shouldNameTheImageTagTheBuildGivesTheImage() throws IOException {
        final Matcher tag = Pattern.compile("<kvtier.image.tag>([^<]+)</kvtier.image.tag>")
            .matcher(Files.readString(Path.of("..", "pom.xml")));
        assertTrue(tag.find(), "the parent pom sets kvtier.image.tag");
        assertTrue(Files.readString(Path.of("pom.xml")).contains("<image>kvtier:${kvtier.image.tag}</image>"),
            "the image is built with that tag");
        for (final String manifest : List.of("kubernetes/explore-job.yaml", "kubernetes/merge-job.yaml")) {
            final String image = only(DEPLOY.resolve(manifest)).at("/spec/template/spec/containers/0/image")
                .asString();
            assertTrue(image.endsWith("/kvtier:" + tag.group(1)), manifest + " runs " + image);
        }
    }

    /** Parses a command line with the CLI's spec (what {@code Main.execute} would run), failing on any error. */
    private static ParseResult parse(final String... args) {
        final ParseResult parsed = Main.commandLine().parseArgs(args);
        assertTrue(parsed.hasSubcommand(), String.join(" ", args));
        return parsed;
    }
}
