package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A lock key and its fencing counter always share one Redis Cluster hash slot, whatever braces the lock key holds,
 * and distinct lock keys never share a Redis key.
 */
class RedisKeysTest {

    private final RedisLockStore store = new RedisLockStore(null, null, "lock:", 1000, false);

    @ParameterizedTest
    @ValueSource(strings = { "order-1", "a}b", "}leading", "trailing}", "{tag}", "{}", "x{y", "{{}}", "日本語",
            "with space", "a:b:c" })
    void aLockKeyAndItsFencingCounterShareAHashTag(String key) {
        String lockKey = store.lockKey(key);
        assertThat(lockKey).startsWith("lock:");
        String tag = hashTag(lockKey);
        assertThat(tag).as("a non-empty hash tag").isNotEmpty();
        assertThat(hashTag(RedisLockStore.fenceKey(lockKey))).isEqualTo(tag);
    }

    @ParameterizedTest
    @ValueSource(strings = { "a}b", "}", "x}}" })
    void keysWithClosingBracesStayDistinctFromEveryOtherKey(String key) {
        String lockKey = store.lockKey(key);
        assertThat(lockKey).endsWith(key);
        String tagContent = hashTag(lockKey);
        assertThat(store.lockKey(tagContent)).isNotEqualTo(lockKey);
    }

    /** The part of a key Redis Cluster hashes, by the rule of the Redis Cluster specification. */
    private static String hashTag(String key) {
        int open = key.indexOf('{');
        if (open < 0) {
            return key;
        }
        int close = key.indexOf('}', open + 1);
        if (close < 0 || close == open + 1) {
            return key;
        }
        return key.substring(open + 1, close);
    }
}
