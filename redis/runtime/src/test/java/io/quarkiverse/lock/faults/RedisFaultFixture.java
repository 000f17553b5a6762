package io.quarkiverse.lock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.spi.LockRegistrySettings;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.quarkiverse.lock.tck.faults.FaultFixture;
import io.quarkiverse.lock.tck.faults.FaultTimeline;
import io.quarkiverse.lock.tck.faults.ProbeCheck;
import io.quarkiverse.lock.tck.faults.SectionLog;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkiverse.lock.testsupport.proxy.FaultMix;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.ProxiedFaults;
import io.quarkiverse.lock.testsupport.proxy.WireProtocol;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.vertx.UniHelper;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The Redis store on one real {@code redis-server}: each instance is a registry over its own {@link RedisLockStore},
 * on its own Vert.x and its own Redis client, connected through its own {@link FaultProxy}; the section log goes
 * straight to the server.
 */
final class RedisFaultFixture implements FaultFixture {

    private final ProxiedFaults faults = new ProxiedFaults(FaultMix.REDIS);
    private final List<Vertx> vertxes = new ArrayList<>();
    private final List<StandaloneLockRegistry> registries = new ArrayList<>();
    private String keyPrefix;
    private RedisServer server;
    private Vertx logVertx;
    private Redis logClient;
    private RedisSectionLog log;

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public List<StandaloneLockRegistry> start(int instances, LockRegistrySettings settings) {
        keyPrefix = settings.keyPrefix();
        server = RedisServer.start();
        logVertx = Vertx.vertx();
        logClient = Redis.createClient(logVertx, new RedisOptions().setConnectionString(server.uri())
                .setMaxPoolSize(8).setMaxPoolWaiting(100_000));
        log = new RedisSectionLog(logClient, keyPrefix);
        for (int i = 0; i < instances; i++) {
            FaultProxy proxy = FaultProxy.start("127.0.0.1", server.port(), WireProtocol.REDIS);
            faults.add(proxy);
            Vertx vertx = Vertx.vertx();
            vertxes.add(vertx);
            Redis redis = Redis.createClient(vertx, new RedisOptions().setConnectionString(proxy.redisUri()));
            RedisLockStore store = new RedisLockStore(vertx, redis, keyPrefix, Duration.ofHours(1).toMillis(), true);
            registries.add(StandaloneLockRegistry.over(store, vertx).settings(settings).start());
        }
        ProbeCheck.assertTheProbeReadsTheStore(registries.get(0), log, "Redis");
        return List.copyOf(registries);
    }

    @Override
    public SectionLog log() {
        return log;
    }

    @Override
    public void startFaults(long seed, FaultTimeline timeline) {
        faults.start(seed, timeline::add);
    }

    @Override
    public void stopFaults() {
        faults.stop();
    }

    @Override
    public Map<String, Long> faultCounts() {
        return faults.counts();
    }

    @Override
    public List<String> leftInStore(List<String> keys) {
        List<String> left = new ArrayList<>();
        String cursor = "0";
        do {
            Response page = send(Request.cmd(Command.SCAN).arg(cursor).arg("MATCH").arg(keyPrefix + "*")
                    .arg("COUNT").arg(1000));
            cursor = page.get(0).toString();
            for (Response key : page.get(1)) {
                String name = key.toString();
                if (name.endsWith(":fence")) {
                    continue;
                }
                String type = send(Request.cmd(Command.TYPE).arg(name)).toString();
                Response value = "string".equals(type) ? send(Request.cmd(Command.GET).arg(name)) : null;
                long ttl = send(Request.cmd(Command.PTTL).arg(name)).toLong();
                left.add(name + " (" + type + (value == null ? "" : " '" + value + "'")
                        + (ttl == -1 ? ", held until released" : ", " + ttl + " ms left") + ")");
            }
        } while (!"0".equals(cursor));
        return left;
    }

    private Response send(Request request) {
        return Uni.createFrom().deferred(() -> UniHelper.toUni(logClient.send(request))).await().atMost(TIMEOUT);
    }

    @Override
    public void close() {
        try {
            stopFaults();
            for (StandaloneLockRegistry registry : registries) {
                registry.close();
            }
            faults.close();
            for (Vertx vertx : vertxes) {
                vertx.close().toCompletionStage().toCompletableFuture().join();
            }
            if (logVertx != null) {
                logVertx.close().toCompletionStage().toCompletableFuture().join();
            }
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }
}
