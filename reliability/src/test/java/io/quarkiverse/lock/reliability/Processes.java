package io.quarkiverse.lock.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Starts the packaged harness application as separate JVM processes, and reads what they print.
 */
final class Processes {

    private Processes() {
    }

    /**
     * A running harness process and the lines it printed.
     */
    static final class Contender implements AutoCloseable {

        private final Process process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final List<String> output = new ArrayList<>();

        Contender(Process process) {
            this.process = process;
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        synchronized (output) {
                            output.add(line);
                        }
                        lines.add(line);
                    }
                } catch (IOException e) {
                    lines.add("READ FAILED " + e.getMessage());
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        /**
         * @param prefix what the line starts with
         * @param timeout how long to wait for it
         * @return the first line starting with the prefix
         * @throws IllegalStateException if none came in time
         */
        String awaitLine(String prefix, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                String line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line != null && line.startsWith(prefix)) {
                    return line;
                }
            }
            throw new IllegalStateException("no line starting with '" + prefix + "' within " + timeout
                    + "; the process printed: " + output());
        }

        /**
         * @param timeout how long to wait
         * @return the exit code
         */
        int awaitExit(Duration timeout) throws InterruptedException {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("still running after " + timeout + "; it printed: " + output());
            }
            return process.exitValue();
        }

        long pid() {
            return process.pid();
        }

        boolean isAlive() {
            return process.isAlive();
        }

        String output() {
            synchronized (output) {
                return String.join("\n", output);
            }
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    /**
     * @param redisUri the Redis server the process locks on
     * @param args the role and its arguments
     * @return the started process
     */
    static Contender start(String redisUri, String... args) throws IOException {
        return start(List.of("-Dquarkus.redis.hosts=" + redisUri), args);
    }

    /**
     * @param settings the process's system properties, as {@code -Dname=value}
     * @param args the role and its arguments
     * @return the started process
     */
    static Contender start(List<String> settings, String... args) throws IOException {
        return startApplication(System.getProperty("reliability.application"), settings, args);
    }

    /**
     * @param settings the process's system properties, as {@code -Dname=value}: the datasource, and the Redis server
     *        of the section log
     * @param args the role and its arguments
     * @return the started process of the harness build that locks on PostgreSQL
     */
    static Contender startOnPostgres(List<String> settings, String... args) throws IOException {
        return startApplication(System.getProperty("reliability.application.postgresql"), settings, args);
    }

    /**
     * @param settings the process's system properties, as {@code -Dname=value}: the datasource {@code locks}, and the
     *        Redis server of the section log
     * @param args the role and its arguments
     * @return the started process of the harness build that locks on MariaDB through the JDBC store
     */
    static Contender startOnJdbc(List<String> settings, String... args) throws IOException {
        return startApplication(System.getProperty("reliability.application.jdbc"), settings, args);
    }

    /**
     * @param settings the process's system properties, as {@code -Dname=value}: the MongoDB connection string
     * @param args the role and its arguments
     * @return the started process of the harness build that locks on MongoDB
     */
    static Contender startOnMongo(List<String> settings, String... args) throws IOException {
        return startApplication(System.getProperty("reliability.application.mongodb"), settings, args);
    }

    /**
     * @param settings the process's system properties, as {@code -Dname=value}: the Redis client {@code locks}, and
     *        the default Redis client, which keeps the section log
     * @param args the role and its arguments
     * @return the started process of the harness build that locks on the Redis client {@code locks}
     */
    static Contender startOnRedisLocks(List<String> settings, String... args) throws IOException {
        return startApplication(System.getProperty("reliability.application.redis-locks"), settings, args);
    }

    private static Contender startApplication(String application, List<String> settings, String... args)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java")));
        command.addAll(settings);
        command.addAll(List.of("-jar", application));
        command.addAll(List.of(args));
        return new Contender(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /**
     * @param port the Redis server's port (on a cluster, any node's: redirections are followed)
     * @param key the list
     * @return the list's entries, read with {@code redis-cli}
     */
    static List<String> readList(int port, String key) throws IOException, InterruptedException {
        return redisCli(port, "LRANGE", key, "0", "-1");
    }

    /**
     * @param port the Redis server's port
     * @param key the list
     * @return how many entries the list has, read with {@code redis-cli}
     */
    static long listLength(int port, String key) throws IOException, InterruptedException {
        return Long.parseLong(redisCli(port, "LLEN", key).get(0));
    }

    /**
     * @param port the Redis server's port
     * @param key the string
     * @return the string's value, read with {@code redis-cli}
     * @throws IllegalStateException if the key holds nothing
     */
    static String readValue(int port, String key) throws IOException, InterruptedException {
        return redisCli(port, "GET", key).stream().findFirst()
                .orElseThrow(() -> new IllegalStateException("no value at " + key));
    }

    /**
     * @param port the Redis server's port
     * @param key the list
     * @param entry appended at the list's end, with {@code redis-cli}
     */
    static void append(int port, String key, String entry) throws IOException, InterruptedException {
        redisCli(port, "RPUSH", key, entry);
    }

    /**
     * @param port the Redis server's port
     * @param key the list
     * @param count how many entries to read, from the end
     * @return the list's last {@code count} entries, read with {@code redis-cli}
     */
    static List<String> readListTail(int port, String key, int count) throws IOException, InterruptedException {
        return redisCli(port, "LRANGE", key, Integer.toString(-count), "-1");
    }

    /**
     * @param port the Redis server's port
     * @param key the string to set to {@code 1}
     */
    static void setFlag(int port, String key) throws IOException, InterruptedException {
        redisCli(port, "SET", key, "1");
    }

    /**
     * @param port the Redis server's port
     * @return the server's clock ({@code TIME}), in microseconds, the clock of the harness's section history
     */
    static long serverTimeMicros(int port) throws IOException, InterruptedException {
        List<String> time = redisCli(port, "TIME");
        return Long.parseLong(time.get(0)) * 1_000_000 + Long.parseLong(time.get(1));
    }

    private static List<String> redisCli(int port, String... command) throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("redis-cli", "-c", "-p", Integer.toString(port), "--raw"));
        arguments.addAll(List.of(command));
        Process cli = new ProcessBuilder(arguments).redirectErrorStream(true).start();
        List<String> entries = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(cli.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (!line.isEmpty()) {
                    entries.add(line);
                }
            }
        }
        cli.waitFor(1, TimeUnit.MINUTES);
        return entries;
    }
}
