package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.quarkiverse.lock.tck.StoreRecovery;

/**
 * An acquisition of an instance that shuts down, waiting in the database's line, withdraws before the store closes:
 * another instance's holder that releases right after the close must not hand the lock to the gone waiter, for its
 * whole lease, though its caller was told it failed. No fault is needed; the same on Redis is in
 * {@code ClosingRegistryKeepsTakeBacksTest}.
 */
class JdbcClosingRegistryWaiterTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration RECOVERY = Duration.ofSeconds(8);

    private final JdbcInstances instances = new JdbcInstances();

    @AfterEach
    void close() throws Exception {
        instances.close();
    }

    @ParameterizedTest
    @EnumSource(ServerDatabase.class)
    void aWaiterOfAClosedRegistryIsNotHandedTheLock(ServerDatabase database) throws Exception {
        int port = database.shared().port();
        String table = "closing_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        StandaloneLockRegistry other = instances.registry(database, port, table, OPERATION_TIMEOUT);
        int rounds = 5;
        int ghosts = 0;
        String example = null;
        for (int i = 0; i < rounds; i++) {
            StandaloneLockRegistry closing = instances.registry(database, port, table, OPERATION_TIMEOUT);
            String key = "closing-waiter-" + i + "-" + UUID.randomUUID();
            ReactiveDistributedLock holder = other.obtain(key);
            assertThat(StoreRecovery.await(() -> holder.acquireOnce().await().atMost(RECOVERY), acquired -> acquired,
                    RECOVERY)).isTrue();
            AtomicReference<Object> outcome = new AtomicReference<>();
            closing.obtain(key).acquire(Duration.ofSeconds(30), Duration.ofMinutes(10)).subscribe()
                    .with(outcome::set, outcome::set);
            Thread.sleep(400 + i * 37 % 200);
            closing.close();
            assertThat(holder.release().await().atMost(RECOVERY)).isTrue();
            Thread.sleep(300);
            if (!holder.acquireOnce().await().atMost(RECOVERY)) {
                ghosts++;
                example = key + ", whose waiter's caller was told " + outcome.get();
            } else {
                holder.release().await().atMost(RECOVERY);
            }
        }
        assertThat(ghosts).as("of %d rounds on %s, a free lock was handed to the closed registry's waiter and stayed "
                + "held by it; e.g. %s", rounds, database, example).isZero();
    }
}
