package io.quarkiverse.lock.runtime.store.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.spi.ReleaseListener;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * A store on Redis: one key per held lock, written and deleted by Lua scripts so each operation is one atomic round
 * trip, over a few pipelined connections ({@link RedisCommandPipeline}, {@code quarkus.lock.redis.connections}): each
 * key's commands always over the same one, chosen by the key's hash, so they reach the server in the order they were
 * sent, and a take-back after the acquisition it takes back.
 * <p>
 * A lock's keys ({@link RedisKeys}) share one hash slot: the lock (the holder's owner id, the lease as its expiry),
 * its fencing counter, and its line of waiting instances. A free lock goes to the first in line, so no instance
 * starves, and a release hands it straight to that waiter, whose instance learns it from a pub/sub channel of its
 * own, {@code <prefix>released:<instance id>}: each hand-over reaches one instance, however many wait. A release with
 * nobody in line is announced to every instance on {@code <prefix>released}. The line exists only while someone
 * waits; the counter outlives a release for the fencing retention, so a released key costs one small string for that
 * long and nothing after.
 * <p>
 * When acquisitions must reach replicas ({@code quarkus.lock.redis.wait-replicas}), a hand-over message only wakes the
 * waiter, which asks the store and waits for the replicas like any acquisition: none counts before the replicas have
 * it.
 */
public final class RedisLockStore implements LockStore {

    /** The store's name, the value of {@code quarkus.lock.provider} that chooses it. */
    public static final String NAME = "redis";

    /**
     * Where the Lua scripts are, as a classpath resource folder; native images must include it. A compile-time
     * constant, so the build step that registers it does not load this class.
     */
    public static final String SCRIPT_FOLDER = "META-INF/quarkus-lock/redis";

    static final RedisScript ACQUIRE = RedisScript.loadWithFunctions("acquire.lua");
    static final RedisScript RELEASE = RedisScript.loadWithFunctions("release.lua");
    static final RedisScript RENEW = RedisScript.load("renew.lua");
    static final RedisScript LEAVE = RedisScript.loadWithFunctions("leave.lua");
    static final RedisScript TAKE_OVER = RedisScript.loadWithFunctions("takeover.lua");
    static final RedisScript FORCE_RELEASE = RedisScript.loadWithFunctions("forcerelease.lua");
    private static final String ONE_TRY = "0";
    private static final String IN_LINE = "1";
    /** {@link LockStore#PLACE_MILLIS} as the acquire script's argument. */
    private static final String PLACE_ARG = Long.toString(PLACE_MILLIS);

    private final Vertx vertx;
    private final Redis redis;
    /** The lock connections; a key's commands go over {@link #pipeline(String)}, the rest over the first. */
    private final RedisCommandPipeline[] pipelines;
    private final String keyPrefix;
    private final String fencingRetentionMillis;
    private final String releaseChannel;
    private final String handOverChannel;
    private final ReplicaAcknowledgement replicas;
    private final RedisListing listing;

    /**
     * A store whose acquisitions need no replica acknowledgement, keeping fencing counters for the given time: the
     * shape tests and tools use.
     *
     * @param vertx the Vert.x instance, for reconnecting the release subscription
     * @param redis the Redis client
     * @param keyPrefix the namespace of lock keys, without braces
     * @param fencingRetentionMillis how long a fencing counter is kept after its last acquisition, positive
     * @param releaseNotifications whether releases and hand-overs are announced
     */
    public RedisLockStore(Vertx vertx, Redis redis, String keyPrefix, long fencingRetentionMillis,
            boolean releaseNotifications) {
        this(vertx, redis, new RedisLockStoreSettings(keyPrefix, Duration.ofMillis(fencingRetentionMillis),
                releaseNotifications, ReplicaAcknowledgement.NONE, RedisLockStoreSettings.DEFAULT_CONNECTIONS));
    }

    /**
     * @param vertx the Vert.x instance, for reconnecting the release subscription
     * @param redis the Redis client
     * @param settings how the store works
     */
    public RedisLockStore(Vertx vertx, Redis redis, RedisLockStoreSettings settings) {
        this.vertx = vertx;
        this.redis = redis;
        this.pipelines = new RedisCommandPipeline[settings.connections()];
        for (int i = 0; i < pipelines.length; i++) {
            pipelines[i] = new RedisCommandPipeline(redis, vertx,
                    List.of(ACQUIRE, RELEASE, RENEW, LEAVE, TAKE_OVER, FORCE_RELEASE, RedisListing.HELD,
                            RedisListing.SCAN));
        }
        this.keyPrefix = settings.keyPrefix();
        this.fencingRetentionMillis = Long.toString(settings.fencingRetention().toMillis());
        this.releaseChannel = settings.releaseNotifications() ? keyPrefix + "released" : "";
        this.handOverChannel = settings.releaseNotifications() ? releaseChannel + ":" + UUID.randomUUID() : "";
        this.replicas = settings.replicas();
        this.listing = new RedisListing(pipelines[0], keyPrefix);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        RedisKeys keys = keys(key);
        return grant(ACQUIRE, RedisLockStore::toAcquireResult, key, owner, 4, keys.lock(), keys.fence(), keys.line(),
                keys.places(), owner, Long.toString(leaseMillis), fencingRetentionMillis,
                waiting ? IN_LINE : ONE_TRY, PLACE_ARG, handOverChannel);
    }

    /**
     * Runs a script that may grant the lock. When replicas must acknowledge, the script and {@code WAIT} go together
     * on one connection, so {@code WAIT} waits for exactly that script's writes; a grant fewer replicas acknowledged
     * in time is released and fails, since a failover could lose it. Otherwise nothing is added to the path.
     */
    private Uni<AcquireResult> grant(RedisScript script, Function<Response, AcquireResult> toResult, String key,
            String owner, int keyCount, String... keysAndArgs) {
        if (replicas.replicas() == 0) {
            return script.run(pipeline(key), keyCount, keysAndArgs).map(toResult);
        }
        return script.runFollowedBy(pipeline(key),
                () -> Request.cmd(Command.WAIT).arg(replicas.replicas()).arg(replicas.timeoutMillis()), keyCount,
                keysAndArgs).flatMap(replies -> {
                    AcquireResult result = toResult.apply(replies.get(0));
                    long acknowledged = replies.get(1).toLong();
                    if (!result.acquired() || acknowledged >= replicas.replicas()) {
                        return Uni.createFrom().item(result);
                    }
                    IllegalStateException unreplicated = new IllegalStateException("the lock was acquired on the "
                            + "primary, but only " + acknowledged + " of the " + replicas.replicas() + " replicas "
                            + "required (quarkus.lock.redis.wait-replicas) acknowledged it within "
                            + replicas.timeoutMillis() + " ms, so it was released again");
                    return release(key, owner).onFailure().recoverWithItem(false)
                            .flatMap(ignored -> Uni.createFrom().<AcquireResult> failure(unreplicated));
                });
    }

    @Override
    public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
        RedisKeys keys = keys(key);
        return grant(TAKE_OVER, token -> AcquireResult.acquired(token.toLong()), key, owner, 2, keys.lock(),
                keys.fence(), owner, Long.toString(leaseMillis), fencingRetentionMillis);
    }

    @Override
    public Uni<Boolean> forceRelease(String key) {
        RedisKeys keys = keys(key);
        return FORCE_RELEASE.run(pipeline(key), 4, keys.lock(), keys.fence(), keys.line(), keys.places(),
                releaseChannel, key, fencingRetentionMillis).map(RedisLockStore::isOne);
    }

    @Override
    public Uni<Boolean> takeBack(String key, String owner) {
        RedisKeys keys = keys(key);
        return LEAVE.run(pipeline(key), 4, keys.lock(), keys.fence(), keys.line(), keys.places(), owner,
                releaseChannel, key, fencingRetentionMillis).map(RedisLockStore::isOne);
    }

    @Override
    public Uni<Boolean> release(String key, String owner) {
        RedisKeys keys = keys(key);
        return RELEASE.run(pipeline(key), 4, keys.lock(), keys.fence(), keys.line(), keys.places(), owner,
                releaseChannel, key, fencingRetentionMillis).map(RedisLockStore::isOne);
    }

    @Override
    public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
        return RENEW.run(pipeline(key), 1, keys(key).lock(), owner, Long.toString(leaseMillis)).map(RedisLockStore::isOne);
    }

    @Override
    public Uni<Boolean> isHeld(String key, String owner) {
        return pipeline(key).send(Request.cmd(Command.GET).arg(keys(key).lock()))
                .map(value -> value != null && owner.equals(value.toString()));
    }

    /**
     * Lists one {@code SCAN} step of the store's keys, on every primary in turn on Redis Cluster ({@link RedisListing}).
     *
     * @throws IllegalArgumentException at once, sending nothing, if the cursor is not one this store makes
     */
    @Override
    public Uni<LockPage> listHeld(String cursor, int limit) {
        return listing.page(cursor, limit);
    }

    @Override
    public AutoCloseable watchReleases(ReleaseListener listener) {
        if (releaseChannel.isEmpty()) {
            return LockStore.super.watchReleases(listener);
        }
        // with replicas to wait for, a hand-over only wakes the waiter, which asks the store itself
        RedisReleaseWatch subscriber = new RedisReleaseWatch(vertx, redis,
                List.of(releaseChannel, handOverChannel), listener, replicas.replicas() > 0);
        subscriber.start();
        return subscriber;
    }

    @Override
    public void noAnswer(Duration timeout) {
        for (RedisCommandPipeline pipeline : pipelines) {
            pipeline.noAnswer(timeout);
        }
    }

    @Override
    public Uni<Void> ping() {
        return pipelines[0].send(Request.cmd(Command.PING)).replaceWithVoid();
    }

    /**
     * Checks, where the server allows {@code CONFIG GET}, that it never evicts keys ({@link RedisEvictionPolicy}).
     */
    @Override
    public void start() {
        RedisEvictionPolicy.check(pipelines[0]);
    }

    /**
     * Closes the connections that carry the lock commands.
     */
    @Override
    public void close() {
        for (RedisCommandPipeline pipeline : pipelines) {
            pipeline.close();
        }
    }

    /**
     * @return the Lua source of the acquire script as the server runs it, for tools that call it directly (the
     *         benchmark's ceiling measurement)
     */
    public static String acquireScriptSource() {
        return ACQUIRE.source();
    }

    /**
     * @return the Lua source of the release script as the server runs it
     */
    public static String releaseScriptSource() {
        return RELEASE.source();
    }

    /** @return the connection that carries the commands of {@code key} */
    RedisCommandPipeline pipeline(String key) {
        return pipelines[Math.floorMod(key.hashCode(), pipelines.length)];
    }

    RedisKeys keys(String key) {
        return RedisKeys.of(keyPrefix, key);
    }

    /** The acquire script answers a grant with its token, a refusal with the wait and how far tokens have gone. */
    private static AcquireResult toAcquireResult(Response reply) {
        if (reply.type() == ResponseType.MULTI) {
            return AcquireResult.heldByAnother(reply.get(0).toLong(), reply.get(1).toLong());
        }
        return AcquireResult.acquired(reply.toLong());
    }

    private static boolean isOne(Response reply) {
        return reply.toLong() == 1L;
    }
}
