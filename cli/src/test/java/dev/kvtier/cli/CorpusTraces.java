package dev.kvtier.cli;

import static dev.kvtier.cli.BadInput.refused;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * Bad trace workloads for the corpus (issue 33): lines of a Mooncake JSONL trace or an Azure CSV trace that are not
 * what the format says (not JSON, a field missing or of the wrong type, negative or zero lengths, more or fewer hash
 * ids than the input's blocks, requests out of arrival order, a bad header, date or field count), and trace keys that
 * cannot work (a missing file, a wrong extension, a block size that is not a whole number of slots, an empty window,
 * closed-loop keys or phases beside a trace). Each is refused with one line and exit 2 before anything runs; a bad
 * line is named {@code FILE:LINE}.
 */
final class CorpusTraces {
    /** A tiny model, so that a good trace would run in a moment. */
    private static final String HEAD = """
        [scenario]
        name = "corpus-trace"
        [model]
        name = "tiny"
        kvHeads = 1
        headDim = 64
        layers = 1
        blockTokens = 16
        dtypeBytes = 2
        [workload]
        """;
    private static final String GOOD = """
        {"timestamp": 0, "input_length": 600, "output_length": 3, "hash_ids": [1, 2]}
        {"timestamp": 5, "input_length": 512, "output_length": 1, "hash_ids": [1]}
        """;
    /** Lines end in CRLF, as in Azure's files. */
    private static final String GOOD_CSV = """
        TIMESTAMP,ContextTokens,GeneratedTokens\r
        2023-11-16 18:17:03.9799600,4808,10\r
        2023-11-16 18:17:04.0319600,3180,8\r
        """;

    private CorpusTraces() {}

    static List<BadInput> all() {
        final List<BadInput> cases = new ArrayList<>();
        mooncake(cases);
        azure(cases);
        keys(cases);
        return cases;
    }

    /** A scenario reading {@code t.jsonl} whose third line is {@code line} (after two good ones). */
    private static BadInput jsonLine(final String name, final String line, final String mentions) {
        return withTrace("trace: " + name, "t.jsonl", GOOD + line + "\n", "trace = \"t.jsonl\"\n", mentions);
    }

    /** A scenario reading {@code t.csv} whose fourth line is {@code line} (after the header and two good ones). */
    private static BadInput csvLine(final String name, final String line, final String mentions) {
        return withTrace("trace: csv " + name, "t.csv", GOOD_CSV + line + "\r\n", "trace = \"t.csv\"\n", mentions);
    }

    private static BadInput withTrace(final String name, final String file, final String text,
                                      final String workload, final String mentions) {
        return refused(name, dir -> {
            Files.writeString(dir.resolve("s.toml"), HEAD + workload);
            Files.writeString(dir.resolve(file), text);
            return null;
        }, mentions, "run", "{d}/s.toml");
    }

    private static void mooncake(final List<BadInput> cases) {
        cases.add(jsonLine("a line that is not JSON", "{\"timestamp\": 7, input_length", "t.jsonl:3: not JSON"));
        cases.add(jsonLine("a line that is a JSON array", "[1, 2, 3]", "t.jsonl:3: not a JSON object"));
        cases.add(jsonLine("a line of binary junk", "\u0001\u0002", "t.jsonl:3"));
        final String[][] missing = {
            {"timestamp", "{\"input_length\": 100, \"output_length\": 1, \"hash_ids\": [4]}"},
            {"input_length", "{\"timestamp\": 9, \"output_length\": 1, \"hash_ids\": [4]}"},
            {"output_length", "{\"timestamp\": 9, \"input_length\": 100, \"hash_ids\": [4]}"},
            {"hash_ids", "{\"timestamp\": 9, \"input_length\": 100, \"output_length\": 1}"},
        };
        for (final String[] m : missing) {
            cases.add(jsonLine("no " + m[0], m[1], "t.jsonl:3: missing field '" + m[0] + "'"));
        }
        cases.add(jsonLine("a negative input_length", "{\"timestamp\": 9, \"input_length\": -100, "
            + "\"output_length\": 1, \"hash_ids\": []}", "t.jsonl:3: 'input_length' must be in"));
        cases.add(jsonLine("input_length 0", "{\"timestamp\": 9, \"input_length\": 0, \"output_length\": 1, "
            + "\"hash_ids\": []}", "t.jsonl:3: 'input_length' must be in"));
        cases.add(jsonLine("a negative output_length", "{\"timestamp\": 9, \"input_length\": 100, "
            + "\"output_length\": -1, \"hash_ids\": [4]}", "t.jsonl:3: 'output_length' must be in"));
        cases.add(jsonLine("output_length 0", "{\"timestamp\": 9, \"input_length\": 100, \"output_length\": 0, "
            + "\"hash_ids\": [4]}", "t.jsonl:3: 'output_length' must be in"));
        cases.add(jsonLine("a negative timestamp", "{\"timestamp\": -9, \"input_length\": 100, \"output_length\": 1, "
            + "\"hash_ids\": [4]}", "t.jsonl:3: 'timestamp' must be in"));
        cases.add(jsonLine("a timestamp with a fraction", "{\"timestamp\": 9.5, \"input_length\": 100, "
            + "\"output_length\": 1, \"hash_ids\": [4]}", "t.jsonl:3: 'timestamp' must be a whole number"));
        cases.add(jsonLine("a length given as a string", "{\"timestamp\": 9, \"input_length\": \"100\", "
            + "\"output_length\": 1, \"hash_ids\": [4]}", "t.jsonl:3: 'input_length' must be a whole number"));
        cases.add(jsonLine("fewer hash ids than blocks", "{\"timestamp\": 9, \"input_length\": 1100, "
            + "\"output_length\": 1, \"hash_ids\": [4, 5]}", "t.jsonl:3: 'hash_ids' has 2 ids, but input_length 1100"));
        cases.add(jsonLine("more hash ids than blocks", "{\"timestamp\": 9, \"input_length\": 100, "
            + "\"output_length\": 1, \"hash_ids\": [4, 5]}", "t.jsonl:3: 'hash_ids' has 2 ids"));
        cases.add(jsonLine("hash ids that are not a list", "{\"timestamp\": 9, \"input_length\": 100, "
            + "\"output_length\": 1, \"hash_ids\": 4}", "t.jsonl:3: 'hash_ids' must be a list"));
        cases.add(jsonLine("a hash id that is a string", "{\"timestamp\": 9, \"input_length\": 100, "
            + "\"output_length\": 1, \"hash_ids\": [\"4\"]}", "t.jsonl:3: hash id 0 must be a whole number"));
        cases.add(jsonLine("a negative hash id", "{\"timestamp\": 9, \"input_length\": 100, \"output_length\": 1, "
            + "\"hash_ids\": [-4]}", "t.jsonl:3: hash id 0 must be in"));
        cases.add(jsonLine("a request out of arrival order", "{\"timestamp\": 4, \"input_length\": 100, "
            + "\"output_length\": 1, \"hash_ids\": [4]}", "t.jsonl:3: arrives at 4.000 ms, before"));
        cases.add(withTrace("trace: an empty line inside", "t.jsonl", GOOD.replace("\n{", "\n\n{"),
            "trace = \"t.jsonl\"\n", "t.jsonl:2: an empty line"));
        cases.add(withTrace("trace: an empty file", "t.jsonl", "", "trace = \"t.jsonl\"\n", "no request"));
        cases.add(refused("trace: not UTF-8", dir -> {
            Files.writeString(dir.resolve("s.toml"), HEAD + "trace = \"t.jsonl\"\n");
            Files.write(dir.resolve("t.jsonl"), new byte[] {(byte) 0xff, (byte) 0xfe, '{', '}', '\n'});
            return null;
        }, "UTF-8", "run", "{d}/s.toml"));
    }

    private static void azure(final List<BadInput> cases) {
        cases.add(withTrace("trace: csv without its header", "t.csv", "2023-11-16 18:17:03.9799600,4808,10\r\n",
            "trace = \"t.csv\"\n", "t.csv:1: the header must be"));
        cases.add(csvLine("a line of two fields", "2023-11-16 18:17:05.0,4808", "t.csv:4: expected 3"));
        cases.add(csvLine("a line of four fields", "2023-11-16 18:17:05.0,4808,10,1", "t.csv:4: expected 3"));
        cases.add(csvLine("a timestamp in another format", "11/16/2023 18:17:05,4808,10", "t.csv:4: TIMESTAMP"));
        cases.add(csvLine("a date that does not exist", "2023-02-30 18:17:05.0,4808,10", "t.csv:4: TIMESTAMP has no"));
        cases.add(csvLine("an hour that does not exist", "2023-11-16 25:17:05.0,4808,10", "t.csv:4: TIMESTAMP has no"));
        cases.add(csvLine("negative ContextTokens", "2023-11-16 18:17:05.0,-4808,10", "t.csv:4: 'ContextTokens'"));
        cases.add(csvLine("GeneratedTokens that are not a number", "2023-11-16 18:17:05.0,4808,ten",
            "t.csv:4: GeneratedTokens must be a whole number"));
        cases.add(csvLine("a request out of arrival order", "2023-11-16 18:17:02.0,4808,10", "t.csv:4: arrives at"));
        cases.add(csvLine("an empty line", "", "t.csv:4: expected 3"));
    }

    private static void keys(final List<BadInput> cases) {
        cases.add(refused("trace: no such file", dir -> {
            Files.writeString(dir.resolve("s.toml"), HEAD + "trace = \"nothing.jsonl\"\n");
            return null;
        }, "nothing.jsonl", "run", "{d}/s.toml"));
        cases.add(withTrace("trace: a file that is neither .jsonl nor .csv", "t.json", GOOD, "trace = \"t.json\"\n",
            ".jsonl"));
        cases.add(withTrace("trace: a block size not a multiple of the model's", "t.jsonl", GOOD,
            "trace = \"t.jsonl\"\ntraceBlockTokens = 500\n", "traceBlockTokens"));
        cases.add(withTrace("trace: a window that ends before it starts", "t.jsonl", GOOD,
            "trace = \"t.jsonl\"\ntraceFromMs = 10\ntraceToMs = 5\n", "traceToMs"));
        cases.add(withTrace("trace: a window with no request", "t.jsonl", GOOD,
            "trace = \"t.jsonl\"\ntraceFromMs = 1000\n", "no request in the window"));
        cases.add(withTrace("trace: a time scale of 0", "t.jsonl", GOOD, "trace = \"t.jsonl\"\ntraceTimeScale = 0\n",
            "traceTimeScale"));
        cases.add(withTrace("trace: closed-loop prompts beside a trace", "t.jsonl", GOOD,
            "trace = \"t.jsonl\"\nprompts = 4\n", "prompts"));
        cases.add(withTrace("trace: phases beside a trace", "t.jsonl", GOOD,
            "trace = \"t.jsonl\"\n[[phase]]\nname = \"cold\"\nrequests = 1\n", "phase"));
        cases.add(withTrace("trace: maxRunning 0", "t.jsonl", GOOD, "trace = \"t.jsonl\"\n[engine]\nmaxRunning = 0\n",
            "maxRunning"));
        cases.add(withTrace("trace: kvBlocks below the longest request", "t.jsonl", GOOD,
            "trace = \"t.jsonl\"\n[engine]\nkvBlocks = 10\n", "kvBlocks"));
        cases.add(refused("trace: --set to a missing file", dir -> {
            Files.writeString(dir.resolve("s.toml"), HEAD + "trace = \"t.jsonl\"\n");
            Files.writeString(dir.resolve("t.jsonl"), GOOD);
            return null;
        }, "nothing.csv", "run", "{d}/s.toml", "--set", "workload.trace=nothing.csv"));
        cases.add(refused("trace: --set on a closed-loop scenario", BadInput.Setup.SCENARIO, "prompts", "run",
            "{d}/s.toml", "--set", "workload.trace=mooncake-conversation-10min"));
    }
}
