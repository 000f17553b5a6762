package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Keys that would break SQL built from text (quotes, semicolons, backslashes, comments, a NUL, which PostgreSQL text
 * cannot hold) lock like any other: they travel only as bind parameters and are stored as their UTF-8 bytes, verbatim,
 * under the prefix, so one never reaches another key's row or another prefix, and the table is left as it was.
 */
class PostgresHostileKeysTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = PostgresTestApp.on(PostgresServer.shared(), "hostile_keys");

    @Inject
    LockRegistry locks;

    @Inject
    Pool pool;

    @ParameterizedTest
    @ValueSource(strings = { "quote'", "double\"quote", "'; DROP TABLE hostile_keys; --", "semi;colon",
            "back\\slash\\", "\\x00", "nul\u0000inside", "\u0000", "$1", "%", "_", "E'\\\\'",
            "unicode-日本語-🔒-\u00e9\u0301", "line\r\nbreak", "/* comment", "lock:", "..",
            "\u0000'); DELETE FROM hostile_keys; --" })
    void aHostileKeyIsStoredVerbatimUnderThePrefixAndLocksOnlyItself(String hostile) throws InterruptedException {
        String key = hostile + "-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.obtain(key);
        ReactiveDistributedLock other = locks.obtain(key);
        ReactiveDistributedLock neighbour = locks.obtain(hostile + "-neighbour-" + UUID.randomUUID());
        awaitTable();
        long rowsBefore = rows();

        assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(rows()).as("one row, and nothing else, was written").isEqualTo(rowsBefore + 1);
        assertThat(heldRow("lock:" + key)).as("the row's key is the prefix and the key, byte for byte").isTrue();
        assertThat(other.acquireOnce().await().atMost(TIMEOUT)).isFalse();
        assertThat(neighbour.acquireOnce().await().atMost(TIMEOUT)).as("another key is another lock").isTrue();
        assertThat(rows()).isEqualTo(rowsBefore + 2);
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
        assertThat(heldRow("lock:" + key)).isFalse();
        assertThat(other.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(other.release().await().atMost(TIMEOUT)).isTrue();
        assertThat(neighbour.release().await().atMost(TIMEOUT)).isTrue();
    }

    /**
     * The store creates its table at startup without holding the start up, and a handle that holds nothing answers
     * {@code isAcquired()} without asking the store: this test, which reads the table directly, waits until it exists.
     */
    private void awaitTable() throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!pool.preparedQuery("SELECT to_regclass($1::text) IS NOT NULL").execute(Tuple.of("hostile_keys"))
                .await().atMost(TIMEOUT).iterator().next().getBoolean(0)) {
            assertThat(System.nanoTime()).as("the store created its table within %s", TIMEOUT).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Test
    void theLongestKeyOfHostileAndFourByteCharactersIsStoredVerbatim() {
        StringBuilder longest = new StringBuilder(UUID.randomUUID().toString());
        String pieces = "'\";\\\u0000日🔒é";
        for (int i = 0; longest.length() < LockRegistry.MAX_KEY_LENGTH; i++) {
            char c = pieces.charAt(i % pieces.length());
            if (Character.isHighSurrogate(c)) {
                if (longest.length() + 2 > LockRegistry.MAX_KEY_LENGTH) {
                    longest.append('x');
                    continue;
                }
                longest.append(c).append(pieces.charAt(++i % pieces.length()));
            } else {
                longest.append(c);
            }
        }
        String key = longest.toString();
        assertThat(key).hasSize(LockRegistry.MAX_KEY_LENGTH);
        ReactiveDistributedLock lock = locks.obtain(key);
        assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(heldRow("lock:" + key)).isTrue();
        assertThat(storedKey("lock:" + key)).isEqualTo(("lock:" + key).getBytes(StandardCharsets.UTF_8));
        assertThat(locks.obtain(key).acquireOnce().await().atMost(TIMEOUT)).isFalse();
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
    }

    private long rows() {
        return pool.query("SELECT count(*) FROM hostile_keys").execute().await().atMost(TIMEOUT).iterator().next()
                .getLong(0);
    }

    private boolean heldRow(String id) {
        return pool.preparedQuery("SELECT count(*) FROM hostile_keys WHERE lock_key = $1 AND owner IS NOT NULL")
                .execute(Tuple.tuple().addBuffer(Buffer.buffer(id.getBytes(StandardCharsets.UTF_8))))
                .await().atMost(TIMEOUT).iterator().next().getLong(0) == 1;
    }

    /** The stored key of the row whose owner holds it, read back by the row's contents, not by the key. */
    private byte[] storedKey(String id) {
        byte[] expected = id.getBytes(StandardCharsets.UTF_8);
        return pool.preparedQuery("SELECT lock_key FROM hostile_keys WHERE octet_length(lock_key) = $1 "
                + "AND owner IS NOT NULL").execute(Tuple.of(expected.length)).await().atMost(TIMEOUT)
                .iterator().next().getBuffer(0).getBytes();
    }
}
