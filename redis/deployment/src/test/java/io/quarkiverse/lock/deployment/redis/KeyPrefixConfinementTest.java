package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Keys that look like other keys, other prefixes, hash tags or paths stay under the configured prefix: whatever the
 * key, every Redis key the locks write (lock, fencing counter, line) starts with it.
 */
class KeyPrefixConfinementTest {

    private static final List<String> HOSTILE = List.of("../../etc/passwd", "}x{", "{other-app}", "other-app:orders",
            "lock:released", "*", "\u0000nul", "app-b:{1}", "$where", "a.b.c");

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.ownedBy(KeyPrefixConfinementTest.class)
            .overrideConfigKey("quarkus.lock.key-prefix", "app-a:");

    @Inject
    LockRegistry locks;

    @Test
    void everyStoredKeyStartsWithThePrefix() throws Exception {
        List<ReactiveDistributedLock> held = new ArrayList<>();
        for (String key : HOSTILE) {
            ReactiveDistributedLock lock = locks.obtain(key);
            assertThat(lock.acquireOnce().await().atMost(Duration.ofSeconds(10))).as(key).isTrue();
            held.add(lock);
        }
        ReactiveDistributedLock waited = locks.obtain("../../etc/passwd");
        assertThat(waited.acquire(Duration.ofMillis(300)).await().atMost(Duration.ofSeconds(10))).isFalse();

        List<String> stored = keys(RedisServer.ownedBy(KeyPrefixConfinementTest.class).port());
        assertThat(stored).hasSizeGreaterThanOrEqualTo(HOSTILE.size() * 2)
                .allSatisfy(key -> assertThat(key).startsWith("app-a:"));
        for (ReactiveDistributedLock lock : held) {
            assertThat(lock.release().await().atMost(Duration.ofSeconds(10))).isTrue();
        }
        assertThat(keys(RedisServer.ownedBy(KeyPrefixConfinementTest.class).port()))
                .allSatisfy(key -> assertThat(key).startsWith("app-a:"));
    }

    private static List<String> keys(int port) throws IOException, InterruptedException {
        Process cli = new ProcessBuilder("redis-cli", "-p", Integer.toString(port), "--raw", "KEYS", "*")
                .redirectErrorStream(true).start();
        String output = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(cli.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return output.lines().filter(line -> !line.isEmpty()).toList();
    }
}
