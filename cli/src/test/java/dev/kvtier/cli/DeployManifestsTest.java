package dev.kvtier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kvtier.lab.explore.Explorer;
import dev.kvtier.lab.explore.Shard;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;
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
        final int completions = spec.get("completions").asInt();
        final JsonNode container = spec.at("/template/spec/containers/0");
        final Map<String, String> env = env(container);
        assertEquals(Integer.toString(completions), env.get(Shard.COUNT_ENV), "KVTIER_SHARDS must be completions");
        assertEquals(container.get("name").asString(),
            spec.at("/podFailurePolicy/rules/0/onExitCodes/containerName").asString());

        final ParseResult parsed = parse(args(container, env));
        final ExploreCommand explore = (ExploreCommand) parsed.subcommand().commandSpec().userObject();
        assertTrue(explore.shardFromEnv && explore.keepGoing, "shards from the Job's index, every failure kept");
        final List<String> mounts = mounts(container);
        assertTrue(onVolume(explore.summary, mounts) && explore.summary.endsWith("/"), explore.summary);
        assertTrue(onVolume(explore.journals.toString(), mounts), explore.journals.toString());
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
