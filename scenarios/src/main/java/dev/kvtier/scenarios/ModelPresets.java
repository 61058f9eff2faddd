package dev.kvtier.scenarios;

import dev.kvtier.core.geometry.ModelGeometry;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Bundled model geometries, for {@code [model] preset = "NAME"}: each key of {@code [model]} given beside it
 * overrides the preset's. KV sizes from the models' published configurations, in bf16:
 * <ul>
 *   <li>{@code qwen3-8b}: 8 KV heads of 128, 36 layers: 2,359,296 B a 16-token block (144 KiB a token);</li>
 *   <li>{@code llama-3.1-8b}: 8 KV heads of 128, 32 layers: 2,097,152 B a 16-token block (128 KiB a token);</li>
 *   <li>{@code llama-3.1-70b}: 8 KV heads of 128, 80 layers: 5,242,880 B a 16-token block (320 KiB a token);</li>
 *   <li>{@code deepseek-v3}: multi-head latent attention caches one latent of 576 (512 compressed + 64 rope) a token
 *       and layer, 61 layers: 70,272 B a token, 4,497,408 B a 64-token block (the block size of MLA kernels; a
 *       16-token block would not be a multiple of 4096 B).</li>
 * </ul>
 */
public final class ModelPresets {
    private static final Map<String, ModelGeometry> PRESETS = new TreeMap<>(Map.of(
        "qwen3-8b", ModelGeometry.QWEN3_8B_BF16,
        "llama-3.1-8b", new ModelGeometry("Llama-3.1-8B", 8, 128, 32, 16, 2),
        "llama-3.1-70b", new ModelGeometry("Llama-3.1-70B", 8, 128, 80, 16, 2),
        "deepseek-v3", new ModelGeometry("DeepSeek-V3", 1, 576, 61, 64, 2, 1)));

    private ModelPresets() {}

    /** The geometry a {@code [model]} table starts from: the preset {@code name}, or Qwen3-8B's without one. */
    static ModelGeometry defaults(final String source, final String name) throws ScenarioException {
        return name == null ? ModelGeometry.QWEN3_8B_BF16 : of(source, name);
    }

    /** The geometry {@code make} builds, or one line naming what is wrong with it. */
    static ModelGeometry checked(final String source, final Supplier<ModelGeometry> make) throws ScenarioException {
        try {
            return make.get();
        } catch (final IllegalArgumentException e) {
            throw new ScenarioException(source + ": table '[model]': " + e.getMessage());
        }
    }

    /** The preset {@code name} (any case), for tools outside the loader; the message lists the presets. */
    public static ModelGeometry named(final String name) {
        try {
            return of("--real-model", name);
        } catch (final ScenarioException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The preset {@code name} (any case); the error lists the presets. */
    static ModelGeometry of(final String source, final String name) throws ScenarioException {
        final ModelGeometry g = PRESETS.get(name.toLowerCase(Locale.ROOT));
        if (g == null) {
            throw new ScenarioException(source + ": key 'model.preset' names no bundled model, got \"" + name
                + "\"" + DidYouMean.hint(name, PRESETS.keySet(), p -> p) + " (presets: " + String.join(", ",
                    PRESETS.keySet())
                + ")");
        }
        return g;
    }
}
