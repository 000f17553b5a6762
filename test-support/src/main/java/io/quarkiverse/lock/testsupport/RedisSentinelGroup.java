package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A primary and a replica {@code redis-server}, watched by three Redis Sentinels ({@code redis-server --sentinel}, the
 * program Debian's {@code redis-sentinel} package runs), with a quorum of two and a primary deemed down after one
 * second, for failover tests. {@link #ownedBy(Class)} starts one per test class, found again by the copies of this
 * class that Quarkus test class loaders make, and stopped when the JVM exits.
 */
public final class RedisSentinelGroup {

    /** The name the sentinels know the primary by: {@code quarkus.redis.master-name}. */
    public static final String MASTER_NAME = "locks";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final int SENTINELS = 3;

    /** Ports: the first primary, its replica, then the sentinels. */
    private final List<Integer> ports;

    private RedisSentinelGroup(List<Integer> ports) {
        this.ports = List.copyOf(ports);
    }

    /**
     * @param testClass the test class the group belongs to
     * @return that class's group, started on first use (with the replica in sync and every sentinel seeing it and the
     *         other sentinels) and stopped when the JVM exits
     */
    public static RedisSentinelGroup ownedBy(Class<?> testClass) {
        String property = testClass.getName() + ".redis-sentinel-group";
        synchronized (System.class) {
            String known = System.getProperty(property);
            if (known != null) {
                return new RedisSentinelGroup(Arrays.stream(known.split(",")).map(Integer::valueOf).toList());
            }
            RedisSentinelGroup group = start();
            System.setProperty(property, join(group.ports));
            return group;
        }
    }

    private static RedisSentinelGroup start() {
        RedisServer primary = RedisServer.start();
        RedisServer replica = RedisServer.startWith("--replicaof", "127.0.0.1", Integer.toString(primary.port()));
        List<Integer> ports = new ArrayList<>(List.of(primary.port(), replica.port()));
        List<Process> sentinels = new ArrayList<>();
        List<Path> directories = new ArrayList<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            sentinels.forEach(Process::destroyForcibly);
            primary.close();
            replica.close();
            directories.forEach(RedisSentinelGroup::delete);
        }, "redis-sentinels-stop"));
        for (int i = 0; i < SENTINELS; i++) {
            try {
                int port = LoopbackPorts.free();
                Path directory = Files.createTempDirectory("quarkus-lock-sentinel");
                directories.add(directory);
                Path config = directory.resolve("sentinel.conf");
                Files.writeString(config, "port " + port + "\nbind 127.0.0.1\ndir " + directory + "\n"
                        + "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + primary.port() + " 2\n"
                        + "sentinel down-after-milliseconds " + MASTER_NAME + " 1000\n"
                        + "sentinel failover-timeout " + MASTER_NAME + " 10000\n"
                        + "sentinel parallel-syncs " + MASTER_NAME + " 1\n");
                Process sentinel = new ProcessBuilder(binary(), config.toString(), "--sentinel")
                        .redirectErrorStream(true).redirectOutput(directory.resolve("sentinel.log").toFile()).start();
                sentinels.add(sentinel);
                ports.add(port);
            } catch (IOException e) {
                throw new IllegalStateException("Could not start a Redis Sentinel: install the redis-server package",
                        e);
            }
        }
        RedisSentinelGroup group = new RedisSentinelGroup(ports);
        group.awaitWatching();
        return group;
    }

    /**
     * @return the sentinels' addresses, for {@code quarkus.redis.hosts} with
     *         {@code quarkus.redis.client-type=sentinel} and {@code quarkus.redis.master-name} {@link #MASTER_NAME}
     */
    public String hosts() {
        return sentinelPorts().stream().map(port -> "redis://127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    /**
     * @return the port of the primary, as the first sentinel that answers names it now
     */
    public int primaryPort() {
        for (int sentinel : sentinelPorts()) {
            String[] address = cli(sentinel, "SENTINEL", "get-master-addr-by-name", MASTER_NAME).split("\n");
            if (address.length == 2) {
                return Integer.parseInt(address[1].trim());
            }
        }
        throw new IllegalStateException("no sentinel names a primary");
    }

    /**
     * Kills the process of the primary on {@code port} with {@code SIGKILL}, as a crash would: the process the server
     * names in {@code INFO server}, so a server {@link #restartAsReplica(int) started again} on the port is the one
     * killed.
     *
     * @param port the port of the primary, from {@link #primaryPort()}
     */
    public void kill(int port) {
        String pid = cli(port, "INFO", "server").lines().filter(line -> line.startsWith("process_id:"))
                .map(line -> line.substring("process_id:".length()).trim()).findFirst()
                .orElseThrow(() -> new IllegalStateException("the server on port " + port + " names no process id"));
        ProcessSignals.send("-KILL", List.of(Long.valueOf(pid)));
    }

    /**
     * Starts a server again on the port of a primary that was killed, as a replica of the primary now, and waits until
     * it is in sync: the group has a replica again, as an operator would restore it after a failover.
     *
     * @param port the port of the killed primary
     */
    public void restartAsReplica(int port) {
        int primary = primaryPort();
        RedisServer.start(port, "--replicaof", "127.0.0.1", Integer.toString(primary));
        Pause.until(() -> cli(primary, "INFO", "replication").contains("port=" + port + ",state=online"),
                READY_TIMEOUT, "the restarted replica did not sync within " + READY_TIMEOUT);
    }

    /**
     * Makes every sentinel ask the servers for their state every second rather than every 10 s ({@code INFO}) and
     * announce itself every half second rather than every 2 s ({@code SENTINEL DEBUG info-period 1000 publish-period
     * 500}): a former primary still up, which the sentinels turn into a replica once it reported its role for four
     * announcement periods, rejoins about 8 s after a forced failover instead of about 16 s, for tests that wait for
     * it.
     */
    public void shortenPeriods() {
        for (int sentinel : sentinelPorts()) {
            String answer = cli(sentinel, "SENTINEL", "DEBUG", "info-period", "1000", "publish-period", "500");
            if (!answer.equals("OK")) {
                throw new IllegalStateException("sentinel " + sentinel + " refused SENTINEL DEBUG: " + answer);
            }
        }
    }

    /**
     * Asks the sentinels for a failover as an operator does ({@code SENTINEL FAILOVER}): they promote the replica
     * without waiting for the primary to be deemed down, then turn the former primary into a replica of the new one.
     * Asked again while a sentinel answers that it cannot yet (a failover still in progress, or no replica it deems
     * fit to promote).
     *
     * @return the port of the primary before the failover
     * @throws IllegalStateException if no sentinel started a failover within a minute
     */
    public int failover() {
        int formerPrimary = primaryPort();
        StringBuilder answers = new StringBuilder();
        Pause.until(() -> {
            String answer = cli(sentinelPorts().get(0), "SENTINEL", "FAILOVER", MASTER_NAME);
            answers.append(answer).append('\n');
            return answer.equals("OK");
        }, READY_TIMEOUT, "no failover started within " + READY_TIMEOUT + "; the sentinel answered " + answers);
        return formerPrimary;
    }

    /**
     * Waits until the server on {@code port} is a replica of the primary the sentinels name, in sync with it, as the
     * sentinels make a former primary after a failover.
     *
     * @param port a server of the group that is not the primary
     * @throws IllegalStateException if that did not happen within a minute
     */
    public void awaitReplica(int port) {
        Pause.until(() -> {
            int primary = primaryPort();
            return primary != port && cli(port, "ROLE").startsWith("slave")
                    && cli(primary, "INFO", "replication").contains("port=" + port + ",state=online");
        }, READY_TIMEOUT, "the server on port " + port + " did not become a replica in sync within " + READY_TIMEOUT);
    }

    /**
     * @return the port of the server that is not the primary the sentinels name now
     */
    public int replicaPort() {
        int primary = primaryPort();
        return ports.get(0) == primary ? ports.get(1) : ports.get(0);
    }

    /**
     * Waits until every sentinel names another primary than {@code formerPrimary}, and that one says it is the primary.
     *
     * @param formerPrimary the port of the primary before the failover
     * @throws IllegalStateException if that did not happen within a minute
     */
    public void awaitFailover(int formerPrimary) {
        Pause.until(() -> {
            List<Integer> named = new ArrayList<>();
            for (int sentinel : sentinelPorts()) {
                String[] address = cli(sentinel, "SENTINEL", "get-master-addr-by-name", MASTER_NAME).split("\n");
                named.add(address.length == 2 ? Integer.parseInt(address[1].trim()) : -1);
            }
            int primary = named.get(0);
            return primary != formerPrimary && primary > 0 && named.stream().allMatch(port -> port == primary)
                    && cli(primary, "ROLE").startsWith("master");
        }, READY_TIMEOUT, "the sentinels did not agree on a new primary within " + READY_TIMEOUT);
    }

    /**
     * @param port a server of the group
     * @param command a command and its arguments
     * @return what {@code redis-cli --raw} printed
     */
    public String send(int port, String... command) {
        return cli(port, command);
    }

    private List<Integer> sentinelPorts() {
        return ports.subList(2, ports.size());
    }

    /** Waits until the replica is in sync and every sentinel knows it and the two other sentinels. */
    private void awaitWatching() {
        int primary = ports.get(0);
        Pause.until(() -> cli(primary, "INFO", "replication").contains("state=online"), READY_TIMEOUT,
                "the replica did not sync within " + READY_TIMEOUT);
        for (int sentinel : sentinelPorts()) {
            Pause.until(() -> {
                String master = cli(sentinel, "SENTINEL", "master", MASTER_NAME);
                return field(master, "num-slaves") == 1 && field(master, "num-other-sentinels") == SENTINELS - 1;
            }, READY_TIMEOUT, "sentinel " + sentinel + " did not see the replica and the other sentinels within "
                    + READY_TIMEOUT);
        }
    }

    /** A numeric field of a {@code SENTINEL master} reply printed by {@code redis-cli --raw}: name, then value. */
    private static int field(String reply, String name) {
        List<String> lines = reply.lines().map(String::trim).toList();
        int at = lines.indexOf(name);
        return at < 0 || at + 1 >= lines.size() ? -1 : Integer.parseInt(lines.get(at + 1));
    }

    private static String cli(int port, String... command) {
        List<String> cli = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port), "--raw"));
        cli.addAll(List.of(command));
        return RedisCli.run(cli).trim();
    }

    private static String binary() {
        return System.getenv().getOrDefault("REDIS_SERVER", "redis-server");
    }

    private static String join(List<?> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static void delete(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind
        }
    }
}
