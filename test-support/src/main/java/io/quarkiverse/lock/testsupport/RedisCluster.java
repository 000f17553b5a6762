package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of six local {@code redis-server} processes, three primaries and three replicas, made with
 * {@code redis-cli --cluster create}, for tests. {@link #shared()} starts one per JVM, {@link #ownedBy(Class)} one per
 * test class that kills its nodes; both are found again by the copies of this class that Quarkus test class loaders
 * make.
 */
public final class RedisCluster {

    private static final int NODES = 6;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final List<Integer> ports;

    private RedisCluster(List<Integer> ports) {
        this.ports = List.copyOf(ports);
    }

    /**
     * @return the cluster shared by every test of this JVM, started on first use and stopped when the JVM exits
     */
    public static RedisCluster shared() {
        return ownedBy(RedisCluster.class);
    }

    /**
     * @param testClass the test class the cluster belongs to
     * @return that class's cluster, started on first use and stopped when the JVM exits
     */
    public static RedisCluster ownedBy(Class<?> testClass) {
        String property = testClass.getName() + ".redis-cluster-ports";
        synchronized (System.class) {
            String known = System.getProperty(property);
            if (known != null) {
                return new RedisCluster(Arrays.stream(known.split(",")).map(Integer::valueOf).toList());
            }
            RedisCluster cluster = start();
            System.setProperty(property, cluster.ports.stream().map(String::valueOf)
                    .collect(Collectors.joining(",")));
            return cluster;
        }
    }

    private static RedisCluster start() {
        List<Integer> ports = new ArrayList<>();
        List<RedisServer> servers = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            int port = freeClusterPort(ports);
            ports.add(port);
            servers.add(RedisServer.start(port, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "2000"));
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> servers.forEach(RedisServer::close),
                "redis-cluster-stop"));
        List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        ports.forEach(port -> create.add("127.0.0.1:" + port));
        create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
        String output = RedisCli.run(create);
        RedisCluster cluster = new RedisCluster(ports);
        cluster.awaitState("ok", output);
        cluster.awaitReplicasInSync();
        return cluster;
    }

    /**
     * @return the client setting that names every node, for {@code quarkus.redis.hosts} with
     *         {@code quarkus.redis.client-type=cluster}
     */
    public String hosts() {
        return ports.stream().map(port -> "redis://127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    /**
     * @return the ports of the nodes that are primaries now
     */
    public List<Integer> primaries() {
        return nodes().stream().filter(line -> line.contains("master") && !line.contains("fail"))
                .map(line -> Integer.valueOf(line.split(" ")[1].split(":")[1].split("@")[0])).toList();
    }

    /**
     * @param command a command and its arguments
     * @return what {@code redis-cli -c} (following redirections to the node of the key's slot) printed
     */
    public String send(String... command) {
        List<String> cli = new ArrayList<>(List.of("redis-cli", "-c", "-p", Integer.toString(primaries().get(0)),
                "--raw"));
        cli.addAll(List.of(command));
        return RedisCli.run(cli).trim();
    }

    /**
     * @param key a key
     * @return the port of the primary that serves the key's slot
     */
    public int primaryOf(String key) {
        long slot = Long.parseLong(send("CLUSTER", "KEYSLOT", key));
        for (String line : nodes()) {
            String[] fields = line.split(" ");
            if (!line.contains("master") || line.contains("fail")) {
                continue;
            }
            for (int i = 8; i < fields.length; i++) {
                String[] range = fields[i].split("-");
                long from = Long.parseLong(range[0]);
                long to = range.length > 1 ? Long.parseLong(range[1]) : from;
                if (slot >= from && slot <= to) {
                    return Integer.parseInt(fields[1].split(":")[1].split("@")[0]);
                }
            }
        }
        throw new IllegalStateException("no primary serves slot " + slot);
    }

    /**
     * Kills a node with {@code kill -9}, as a crash would.
     *
     * @param port the node's port
     */
    public void kill(int port) {
        String info = RedisCli.run(List.of("redis-cli", "-p", Integer.toString(port), "INFO", "server"));
        String pid = info.lines().filter(line -> line.startsWith("process_id:")).findFirst()
                .map(line -> line.substring("process_id:".length()).trim())
                .orElseThrow(() -> new IllegalStateException("no process id in " + info));
        RedisCli.run(List.of("kill", "-9", pid));
    }

    /**
     * @return how many keys the primaries hold
     */
    public long size() {
        return primaries().stream().mapToLong(port -> Long.parseLong(RedisCli.run(List.of("redis-cli", "-p",
                Integer.toString(port), "DBSIZE")).trim())).sum();
    }

    private List<String> nodes() {
        for (int port : ports) {
            if (!isAlive(port)) {
                continue;
            }
            String output = RedisCli.run(List.of("redis-cli", "-p", Integer.toString(port), "CLUSTER", "NODES"));
            if (output.contains("master")) {
                return output.lines().toList();
            }
        }
        throw new IllegalStateException("no node of the cluster answers");
    }

    /**
     * Waits until a replica took over from a primary that died: the dead node is no longer a primary, three others
     * are, and the cluster is {@code ok} again.
     *
     * @param deadPort the port of the primary that died
     */
    public void awaitFailover(int deadPort) {
        waitUntil(() -> {
            List<Integer> primaries = primaries();
            return !primaries.contains(deadPort) && primaries.size() == NODES / 2;
        }, "no replica took over from " + deadPort);
        awaitState("ok", "after the failover of " + deadPort);
    }

    /** Waits until every replica has synchronised with its primary, so that any primary can fail over. */
    private void awaitReplicasInSync() {
        waitUntil(() -> ports.stream().map(port -> RedisCli.run(List.of("redis-cli", "-p", Integer.toString(port), "INFO",
                "replication"))).filter(info -> info.contains("master_link_status:up")).count() == NODES / 2,
                "the replicas did not synchronise");
    }

    /**
     * Waits until every live node reports the given cluster state.
     *
     * @param state such as {@code ok}
     * @param context what to show if it does not come
     */
    public void awaitState(String state, String context) {
        waitUntil(() -> ports.stream().map(port -> RedisCli.run(List.of("redis-cli", "-p", Integer.toString(port),
                "CLUSTER", "INFO"))).filter(info -> info.contains("cluster_state"))
                .allMatch(info -> info.contains("cluster_state:" + state)) && primaries().size() == NODES / 2,
                "the cluster did not reach state " + state + " (" + context + ")");
    }

    private static void waitUntil(BooleanSupplier condition, String failure) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(failure + " within " + READY_TIMEOUT);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static boolean isAlive(int port) {
        return RedisCli.run(List.of("redis-cli", "-p", Integer.toString(port), "PING")).contains("PONG");
    }

    /** A port that is free, and whose cluster bus port (+10000) is free and valid too. */
    private static int freeClusterPort(List<Integer> taken) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 30_000);
            if (!taken.contains(port) && isFree(port) && isFree(port + 10_000)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port pair for a cluster node");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
