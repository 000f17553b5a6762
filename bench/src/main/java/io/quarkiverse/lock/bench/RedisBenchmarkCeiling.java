package io.quarkiverse.lock.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Redis itself can do with our two scripts: {@code redis-benchmark} calling the acquire and the release script
 * by EVALSHA on random keys, at a given concurrency, with or without pipelining. A pair costs one of each, so the
 * pair ceiling is the harmonic combination of the two rates.
 *
 * @param port the redis-server's port
 * @param acquireSha the loaded acquire script's SHA-1
 * @param releaseSha the loaded release script's SHA-1
 */
record RedisBenchmarkCeiling(int port, String acquireSha, String releaseSha) {

    private static final Pattern RATE = Pattern.compile("([0-9.]+) requests per second");

    /**
     * @return pairs per second, or NaN if redis-benchmark is not installed
     */
    double pairsPerSecond(int clients, int pipeline, int requests) {
        double acquire = rate(clients, pipeline, requests, List.of("EVALSHA", acquireSha, "4", "bench:{__rand_int__}",
                "bench:{__rand_int__}:fence", "bench:{__rand_int__}:line", "bench:{__rand_int__}:places", "owner",
                "10000", "3600000", "0", "1000"));
        double release = rate(clients, pipeline, requests, List.of("EVALSHA", releaseSha, "4", "bench:{__rand_int__}",
                "bench:{__rand_int__}:fence", "bench:{__rand_int__}:line", "bench:{__rand_int__}:places", "owner",
                "bench:released", "__rand_int__", "3600000"));
        return 1 / (1 / acquire + 1 / release);
    }

    private double rate(int clients, int pipeline, int requests, List<String> command) {
        List<String> args = new ArrayList<>(List.of("redis-benchmark", "-p", Integer.toString(port), "-c",
                Integer.toString(clients), "-n", Integer.toString(requests), "-P", Integer.toString(pipeline), "-r",
                "1000000", "-q"));
        args.addAll(command);
        try {
            Process process = new ProcessBuilder(args).redirectErrorStream(true).start();
            String output;
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            process.waitFor();
            Matcher matcher = RATE.matcher(output);
            double last = Double.NaN;
            while (matcher.find()) {
                last = Double.parseDouble(matcher.group(1));
            }
            return last;
        } catch (IOException e) {
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }
}
