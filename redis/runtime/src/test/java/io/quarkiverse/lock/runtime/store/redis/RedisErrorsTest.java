package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The error codes the store acts on, read from the messages the Vert.x Redis client reports: as Redis 7 answers them,
 * within a batch, and as Redis 6 relays the error of a command its script called (the text of {@code scripting.c}:
 * {@code "Error running script (call to f_<sha>): @user_script:<line>: "} and the command's error, dash included).
 * No Redis 6 server can be had here, so its message is written out as its source builds it.
 */
class RedisErrorsTest {

    private static final String REPLICA = "You can't write against a read only replica.";

    @Test
    void aReplicaRefusingAWriteIsReadWhereverRedisPutsTheCode() {
        assertThat(RedisErrors.is(new RuntimeException("READONLY " + REPLICA), "READONLY")).isTrue();
        assertThat(RedisErrors.is(new RuntimeException("ERR [1] READONLY " + REPLICA), "READONLY")).isTrue();
        assertThat(RedisErrors.is(new RuntimeException("ERR Error running script (call to "
                + "f_5e1ea0b3d0b1e5a6c2f4e3d2c1b0a9f8e7d6c5b4): @user_script:3: -READONLY " + REPLICA), "READONLY"))
                .isTrue();
    }

    @Test
    void anotherErrorIsNotTakenForTheCode() {
        assertThat(RedisErrors.is(new RuntimeException("ERR Error running script (call to f_0): @user_script:3: "
                + "-NOSCRIPT No matching script."), "READONLY")).isFalse();
        assertThat(RedisErrors.is(new RuntimeException("ERR value mentions READONLY in passing"), "READONLY"))
                .isFalse();
        assertThat(RedisErrors.is(new RuntimeException((String) null), "READONLY")).isFalse();
    }
}
