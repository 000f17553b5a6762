package io.quarkiverse.lock.runtime.store.redis;

import java.util.function.Consumer;

import io.quarkiverse.lock.runtime.store.AcquireResult;
import io.quarkiverse.lock.runtime.store.LockStore;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.vertx.UniHelper;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * A store on Redis: one key per held lock, written and deleted by Lua scripts so each operation is one atomic round
 * trip.
 * <p>
 * A lock {@code k} lives at {@code <prefix>{k}} (value: the owner id, with the lease as the key's expiry) and its
 * fencing counter at {@code <prefix>{k}:fence}. Both carry the hash tag {@code {k}}, so they sit in one slot on Redis
 * Cluster (see {@link #lockKey(String)} for keys containing '}'). A release is announced on the pub/sub channel
 * {@code <prefix>released} with the lock's name; classic pub/sub reaches every node of a cluster. The counter outlives a release for the configured fencing retention, then expires: a released key costs
 * one small string for that long, and nothing after.
 */
public final class RedisLockStore implements LockStore {

    static final RedisScript ACQUIRE = RedisScript.load("acquire.lua");
    static final RedisScript RELEASE = RedisScript.load("release.lua");
    static final RedisScript RENEW = RedisScript.load("renew.lua");

    private final Vertx vertx;
    private final Redis redis;
    private final String keyPrefix;
    private final String fencingRetentionMillis;
    private final String releaseChannel;

    /**
     * @param vertx the Vert.x instance, for reconnecting the release subscription
     * @param redis the Redis client
     * @param keyPrefix the namespace of lock keys, without braces
     * @param fencingRetentionMillis how long a fencing counter is kept after its last acquisition, positive
     * @param releaseNotifications whether releases are announced on the pub/sub channel {@code <keyPrefix>released}
     */
    public RedisLockStore(Vertx vertx, Redis redis, String keyPrefix, long fencingRetentionMillis,
            boolean releaseNotifications) {
        this.vertx = vertx;
        this.redis = redis;
        this.keyPrefix = keyPrefix;
        this.fencingRetentionMillis = Long.toString(fencingRetentionMillis);
        this.releaseChannel = releaseNotifications ? keyPrefix + "released" : "";
    }

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis) {
        String lockKey = lockKey(key);
        return ACQUIRE.run(redis, 2, lockKey, fenceKey(lockKey), owner, Long.toString(leaseMillis),
                fencingRetentionMillis)
                .map(RedisLockStore::toAcquireResult);
    }

    @Override
    public Uni<Boolean> release(String key, String owner) {
        return RELEASE.run(redis, 1, lockKey(key), owner, releaseChannel, key).map(RedisLockStore::isOne);
    }

    @Override
    public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
        return RENEW.run(redis, 1, lockKey(key), owner, Long.toString(leaseMillis)).map(RedisLockStore::isOne);
    }

    @Override
    public Uni<Boolean> isHeld(String key, String owner) {
        return UniHelper.toUni(redis.send(Request.cmd(Command.GET).arg(lockKey(key))))
                .map(value -> value != null && owner.equals(value.toString()));
    }

    @Override
    public AutoCloseable watchReleases(Consumer<String> onRelease, Runnable onGap) {
        if (releaseChannel.isEmpty()) {
            return LockStore.super.watchReleases(onRelease, onGap);
        }
        RedisReleaseSubscriber subscriber = new RedisReleaseSubscriber(vertx, redis, releaseChannel, onRelease, onGap);
        subscriber.start();
        return subscriber;
    }

    /**
     * Returns the Redis key of a lock. Its hash tag is the lock key itself; a key containing '}' cannot be its own
     * tag (Redis ends the tag at the first '}'), so it gets a tag made of its hash code and follows it in full.
     *
     * @param key a lock key
     * @return the Redis key holding that lock
     */
    String lockKey(String key) {
        if (key.indexOf('}') < 0) {
            return keyPrefix + '{' + key + '}';
        }
        return keyPrefix + "{#" + Integer.toHexString(key.hashCode()) + '}' + key;
    }

    /**
     * @param lockKey the Redis key of a lock
     * @return the Redis key of its fencing counter, in the same hash slot
     */
    static String fenceKey(String lockKey) {
        return lockKey + ":fence";
    }

    private static AcquireResult toAcquireResult(Response reply) {
        long value = reply.toLong();
        return value > 0 ? AcquireResult.acquired(value) : AcquireResult.heldByAnother(-1 - value);
    }

    private static boolean isOne(Response reply) {
        return reply.toLong() == 1L;
    }
}
