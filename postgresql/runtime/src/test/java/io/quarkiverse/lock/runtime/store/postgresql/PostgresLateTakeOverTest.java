package io.quarkiverse.lock.runtime.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.spi.LockRegistrySettings;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.WireProtocol;
import io.vertx.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * An overriding take-over (or release) that failed for its caller, since the operation timeout ran out while it
 * waited behind its key's earlier statements, must never take effect afterwards: the lock may have been granted since
 * to a holder that knows nothing of the failed take-over, and that holder would lose the lock while it works as if it
 * held it.
 */
class PostgresLateTakeOverTest {

    private static final String TABLE = "quarkus_lock";
    private static final String KEY = "late-take-over";
    private static final Duration TIMEOUT = Duration.ofMillis(800);
    private static final Duration AWAIT = Duration.ofSeconds(10);

    private PostgresServer server;
    private FaultProxy proxy;
    private Vertx vertx;
    private Pool proxied;
    private Pool direct;
    private StandaloneLockRegistry slow;
    private StandaloneLockRegistry clean;
    private PostgresLockStore slowStore;

    @AfterEach
    void stop() {
        if (slow != null) {
            slow.close();
        }
        if (clean != null) {
            clean.close();
        }
        if (proxied != null) {
            proxied.close().await().atMost(AWAIT);
        }
        if (direct != null) {
            direct.close().await().atMost(AWAIT);
        }
        if (proxy != null) {
            proxy.close();
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aTakeOverThatFailedNeverTakesTheLockFromALaterHolder() throws InterruptedException {
        server = PostgresServer.start();
        proxy = FaultProxy.start("127.0.0.1", server.port(), WireProtocol.POSTGRESQL);
        vertx = Vertx.vertx();
        proxied = pool(proxy.port());
        direct = pool(server.port());
        slow = registry(proxied, true);
        warmUp(slow);
        clean = registry(direct, false);
        warmUp(clean);
        ReactiveDistributedLock first = clean.obtain(KEY);
        assertThat(first.acquireOnce().await().atMost(AWAIT)).as("the lock is free, so the first holder gets it")
                .isTrue();

        // The slow instance's next acquisition gets its refusal only after the operation timeout, and the ending of its
        // server process answers late too: the key's later statements wait behind it for about two timeouts.
        AtomicBoolean delayAcquisition = new AtomicBoolean(true);
        AtomicBoolean delayTermination = new AtomicBoolean(true);
        proxy.rule(exchange -> {
            String request = exchange.request();
            if (request != null && request.startsWith("INSERT INTO") && delayAcquisition.compareAndSet(true, false)) {
                return Fault.delay(Duration.ofMillis(3_000));
            }
            if (request != null && request.contains("pg_terminate_backend")
                    && delayTermination.compareAndSet(true, false)) {
                return Fault.delay(Duration.ofMillis(1_500));
            }
            return Fault.pass();
        });
        slow.obtain(KEY).acquireOnce().subscribe().with(ignored -> {
        }, ignored -> {
        });
        Thread.sleep(100);

        // A take-over queued behind them fails for its caller when the operation timeout runs out.
        ReactiveDistributedLock overriding = slow.obtain(KEY, LockType.OVERRIDING);
        assertThatThrownBy(() -> overriding.acquire(Duration.ZERO, Duration.ofSeconds(5)).await().atMost(AWAIT))
                .as("the take-over waits behind the key's statements longer than the operation timeout")
                .isInstanceOf(LockException.class);

        // Then the lock changes hands on another instance, after the take-over was reported failed.
        assertThat(first.release().await().atMost(AWAIT)).as("the first holder releases").isTrue();
        ReactiveDistributedLock later = clean.obtain(KEY);
        assertThat(later.acquireOnce().await().atMost(AWAIT)).as("the lock is free, so the later holder gets it")
                .isTrue();

        // Once the slow instance's statements on the key are settled and its queue drained, the later holder still
        // holds the lock.
        long deadline = System.nanoTime() + AWAIT.toNanos();
        while (slowStore.busyKeys() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        Thread.sleep(500);
        assertThat(later.isAcquired().await().atMost(AWAIT))
                .as("a take-over reported failed took the lock later from a holder granted after that failure")
                .isTrue();
    }

    /**
     * Acquires and releases another key until that works within the operation timeout: the slow instance creates the
     * table, and each instance's first connections take longer than an operation may.
     */
    private static void warmUp(StandaloneLockRegistry registry) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            ReactiveDistributedLock lock = registry.obtain("warm-up");
            try {
                if (lock.acquireOnce().await().atMost(AWAIT) && lock.release().await().atMost(AWAIT)) {
                    return;
                }
            } catch (LockException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw e;
                }
            }
            Thread.sleep(200);
        }
    }

    private StandaloneLockRegistry registry(Pool pool, boolean slowOne) {
        LockRegistrySettings settings = LockRegistrySettings.defaults().withOperationTimeout(TIMEOUT)
                .withExpireAfter(Duration.ofSeconds(10));
        PostgresLockStore store = new PostgresLockStore(vertx, pool, new PostgresLockStoreSettings(
                PostgresTable.parse(TABLE), settings.keyPrefix(), slowOne, false, Duration.ofHours(1), TIMEOUT));
        if (slowOne) {
            slowStore = store;
        }
        return StandaloneLockRegistry.over(store, vertx).settings(settings).start();
    }

    private Pool pool(int port) {
        return PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri("postgresql://127.0.0.1:" + port + "/" + PostgresServer.DATABASE)
                        .setUser(PostgresServer.SUPERUSER).setPassword(PostgresServer.SUPERUSER_PASSWORD))
                .with(new PoolOptions().setMaxSize(4))
                .using(io.vertx.mutiny.core.Vertx.newInstance(vertx)).build();
    }
}
