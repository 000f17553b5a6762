package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A lock's Redis keys always share one Redis Cluster hash slot, whatever braces the lock key holds, and distinct lock
 * keys never share a Redis key, not even keys whose hash codes collide.
 */
class RedisKeysTest {

    @ParameterizedTest
    @ValueSource(strings = { "order-1", "a}b", "}leading", "trailing}", "{tag}", "{}", "x{y", "{{}}", "日本語",
            "with space", "a:b:c" })
    void aLocksKeysShareAHashTag(String key) {
        RedisKeys keys = RedisKeys.of("lock:", key);
        assertThat(keys.lock()).startsWith("lock:");
        String tag = hashTag(keys.lock());
        assertThat(tag).as("a non-empty hash tag").isNotEmpty();
        assertThat(List.of(hashTag(keys.fence()), hashTag(keys.line()), hashTag(keys.places())))
                .containsOnly(tag);
    }

    @Test
    void keysWhoseHashCodesCollideNeverShareARedisKey() {
        String key = "a}e6xt16w7kycn";
        String other = key + ":line";
        assertThat(key.hashCode()).as("the two keys' hash codes collide").isEqualTo(other.hashCode());
        List<String> all = new ArrayList<>();
        for (String k : List.of(key, other, "#" + Integer.toHexString(key.hashCode()), "}", "x}}", "a}b")) {
            RedisKeys keys = RedisKeys.of("lock:", k);
            all.addAll(List.of(keys.lock(), keys.fence(), keys.line(), keys.places()));
        }
        assertThat(new HashSet<>(all)).hasSameSizeAs(all);
    }

    @ParameterizedTest
    @ValueSource(strings = { "a}b", "}", "x}}" })
    void keysWithClosingBracesEndWithTheWholeKeyAfterTheirRole(String key) {
        RedisKeys keys = RedisKeys.of("lock:", key);
        assertThat(keys.lock()).endsWith("}lock:" + key);
        assertThat(keys.fence()).endsWith("}fence:" + key);
        assertThat(RedisKeys.of("lock:", hashTag(keys.lock())).lock()).isNotEqualTo(keys.lock());
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
