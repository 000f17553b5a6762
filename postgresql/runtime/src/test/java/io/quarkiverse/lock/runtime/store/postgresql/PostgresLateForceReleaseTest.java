package io.quarkiverse.lock.runtime.store.postgresql;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.WireProtocol;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * An overriding release (a release whoever holds the lock) that its caller gave up on while it still waited for the
 * statements before it on its key must never be sent: sent later, it would free a lock granted since to an
 * acquisition that knows nothing of it, which keeps running as if it held the lock while the store gives it to the
 * next comer. The registry gives up on it when the operation timeout runs out (and says it failed), by cancelling it.
 */
class PostgresLateForceReleaseTest {

    private static final String TABLE = "quarkus_lock";
    private static final String KEY = "late-force-release";
    private static final Duration TIMEOUT = Duration.ofMillis(800);

    private PostgresServer server;
    private FaultProxy proxy;
    private Vertx vertx;
    private Pool proxied;
    private Pool direct;
    private PostgresLockStore slow;
    private PostgresLockStore clean;

    @AfterEach
    void stop() {
        if (slow != null) {
            slow.close();
        }
        if (clean != null) {
            clean.close();
        }
        if (proxied != null) {
            proxied.close().await().atMost(Duration.ofSeconds(10));
        }
        if (direct != null) {
            direct.close().await().atMost(Duration.ofSeconds(10));
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
    void aForceReleaseGivenUpOnBeforeItWasSentNeverFreesALaterHolder() throws InterruptedException {
        server = PostgresServer.start();
        proxy = FaultProxy.start("127.0.0.1", server.port(), WireProtocol.POSTGRESQL);
        vertx = Vertx.vertx();
        proxied = pool(proxy.port());
        direct = pool(server.port());
        slow = new PostgresLockStore(vertx, proxied, settings(true));
        clean = new PostgresLockStore(vertx, direct, settings(false));
        slow.start();
        // The table exists before anything is delayed.
        slow.release(KEY, "nobody").await().atMost(Duration.ofSeconds(30));

        // The next release on this instance gets its reply only after the operation timeout: the key's statements
        // wait behind it until its server process is ended.
        AtomicBoolean delayNext = new AtomicBoolean(true);
        proxy.rule(exchange -> exchange.request() != null && exchange.request().startsWith("WITH old AS")
                && delayNext.compareAndSet(true, false) ? Fault.delay(Duration.ofMillis(2_500)) : Fault.pass());
        slow.release(KEY, "nobody").subscribe().with(ignored -> {
        }, ignored -> {
        });
        Thread.sleep(100);

        // An overriding release queued behind it, given up on by its caller (as the operation timeout does).
        Cancellable forceRelease = slow.forceRelease(KEY).subscribe().with(ignored -> {
        }, ignored -> {
        });
        Thread.sleep(100);
        forceRelease.cancel();

        // Then another instance acquires the lock.
        AcquireResult granted = clean.tryAcquire(KEY, "later-holder", 10_000, false).await()
                .atMost(Duration.ofSeconds(10));
        assertTrue(granted.acquired(), "the lock is free, so the later holder gets it");

        // Once the slow statement is settled, the key's queue drains.
        Thread.sleep(2_500);
        assertTrue(clean.isHeld(KEY, "later-holder").await().atMost(Duration.ofSeconds(10)),
                "an overriding release given up on before it was sent freed a lock granted afterwards");
    }

    private PostgresLockStoreSettings settings(boolean createSchema) {
        return new PostgresLockStoreSettings(PostgresTable.parse(TABLE), "", createSchema, false, Duration.ofHours(1),
                TIMEOUT);
    }

    private Pool pool(int port) {
        return PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri("postgresql://127.0.0.1:" + port + "/" + PostgresServer.DATABASE)
                        .setUser(PostgresServer.SUPERUSER).setPassword(PostgresServer.SUPERUSER_PASSWORD))
                .with(new PoolOptions().setMaxSize(4))
                .using(io.vertx.mutiny.core.Vertx.newInstance(vertx)).build();
    }
}
