package io.quarkiverse.lock.runtime.store.redis;

/**
 * The Redis keys of one lock: the lock itself (value: the owner id of the acquisition that holds it, expiry: the
 * lease), its fencing counter, its line of waiters and their places. All four carry one hash tag, so they sit in one
 * slot on Redis Cluster and one script can touch them all.
 * <p>
 * A lock key {@code k} without '}' is its own tag: {@code <prefix>{k}}, {@code <prefix>{k}:fence},
 * {@code <prefix>{k}:line}, {@code <prefix>{k}:places}. A key containing '}' cannot be its own tag (Redis ends a tag
 * at the first '}'), so its tag is made of its hash code, and the key's role comes right after the tag, before the
 * user's key: {@code <prefix>{#<hash>}lock:<k>}, {@code ...fence:<k>}, and so on. Keys whose hash codes collide then
 * share a tag but never a Redis key, since the role ends where the tag ends and the whole user key follows; and no
 * key of the first form can equal one of the second, which has no character after its tag's '}' but a role.
 *
 * @param lock the lock
 * @param fence its fencing counter
 * @param line its line of waiters (a sorted set of owner ids by arrival)
 * @param places its waiters' places (a hash: owner id to place deadline and lease)
 */
public record RedisKeys(String lock, String fence, String line, String places) {

    /**
     * @param prefix the namespace of lock keys ({@code quarkus.lock.key-prefix}), without braces
     * @param key a lock key
     * @return the Redis keys of that lock
     */
    public static RedisKeys of(String prefix, String key) {
        if (key.indexOf('}') < 0) {
            String lock = prefix + '{' + key + '}';
            return new RedisKeys(lock, lock + ":fence", lock + ":line", lock + ":places");
        }
        String tagged = prefix + "{#" + Integer.toHexString(key.hashCode()) + '}';
        return new RedisKeys(tagged + "lock:" + key, tagged + "fence:" + key, tagged + "line:" + key,
                tagged + "places:" + key);
    }
}
