package io.quarkiverse.lock.runtime.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.spi.AcquireResult;
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
 * Which statements the store sends, counted by a proxy between it and a real server (one {@code BindComplete} answers
 * each execution): the fast path serves a key with
 * nobody in line in one statement per operation, and once this instance found a line on a key, its polls and its
 * release of that key go straight to the full statement, one round trip each instead of two.
 */
class PostgresFastPathTest {

    private static final Duration AWAIT = Duration.ofSeconds(10);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final String KEY = "lock:fast-path";

    private final Map<String, AtomicInteger> sent = new ConcurrentHashMap<>();
    private Vertx vertx;
    private FaultProxy proxy;
    private Pool holderPool;
    private Pool waiterPool;
    private PostgresLockStore holder;
    private PostgresLockStore waiter;
    private PostgresStatements statements;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        proxy = FaultProxy.start("127.0.0.1", PostgresServer.shared().port(), WireProtocol.POSTGRESQL);
        proxy.rule(exchange -> {
            if (!exchange.push() && "BindComplete".equals(exchange.reply())) {
                sent.computeIfAbsent(exchange.request(), sql -> new AtomicInteger()).incrementAndGet();
            }
            return Fault.pass();
        });
        PostgresTable table = PostgresTable.parse("fast_" + UUID.randomUUID().toString().replace("-", ""));
        statements = new PostgresStatements(table);
        holderPool = pool();
        waiterPool = pool();
        holder = store(holderPool, table);
        waiter = store(waiterPool, table);
    }

    @AfterEach
    void stop() {
        if (holder != null) {
            holder.close();
        }
        if (waiter != null) {
            waiter.close();
        }
        if (holderPool != null) {
            holderPool.close().await().atMost(AWAIT);
        }
        if (waiterPool != null) {
            waiterPool.close().await().atMost(AWAIT);
        }
        if (proxy != null) {
            proxy.close();
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    @Test
    void aKeyWithNobodyInLineTakesOneStatementPerOperation() {
        AcquireResult acquired = holder.tryAcquire(KEY, "holder", 10_000, true).await().atMost(AWAIT);
        assertThat(acquired.acquired()).as("the key is free").isTrue();
        assertThat(holder.release(KEY, "holder").await().atMost(AWAIT)).as("the holder releases").isTrue();

        assertThat(count(statements.grantIfAlone())).as("acquisitions by the fast path").isEqualTo(1);
        assertThat(count(statements.releaseIfAlone())).as("releases by the fast path").isEqualTo(1);
        assertThat(count(statements.acquire(true)) + count(statements.free()))
                .as("full statements, which the fast path made needless").isZero();
    }

    @Test
    void aWaiterThatFoundALineSendsOneStatementPerPollAndPerRelease() {
        assertThat(holder.tryAcquire(KEY, "holder", 10_000, true).await().atMost(AWAIT).acquired())
                .as("the key is free").isTrue();
        int fastAcquisitions = count(statements.grantIfAlone());
        int polls = 4;
        for (int i = 0; i < polls; i++) {
            assertThat(waiter.tryAcquire(KEY, "waiter", 10_000, true).await().atMost(AWAIT).acquired())
                    .as("poll %d, while the holder holds", i).isFalse();
        }
        assertThat(count(statements.grantIfAlone()) - fastAcquisitions)
                .as("the waiter's fast-path attempts: only its first poll, before it knew of a line").isEqualTo(1);
        assertThat(count(statements.acquire(true))).as("full statements: one per poll").isEqualTo(polls);

        assertThat(holder.release(KEY, "holder").await().atMost(AWAIT)).as("the holder releases").isTrue();
        assertThat(waiter.tryAcquire(KEY, "waiter", 10_000, true).await().atMost(AWAIT).acquired())
                .as("the lock was handed to the waiter").isTrue();
        int fastReleases = count(statements.releaseIfAlone());
        assertThat(waiter.release(KEY, "waiter").await().atMost(AWAIT)).as("the waiter releases").isTrue();

        assertThat(count(statements.grantIfAlone()) - fastAcquisitions)
                .as("the poll after the hand-over skips the fast path too").isEqualTo(1);
        assertThat(count(statements.releaseIfAlone()))
                .as("the release of a lock that was waited for skips the fast path").isEqualTo(fastReleases);
        assertThat(count(statements.free())).as("full releases: the holder's, with a line, and the waiter's")
                .isEqualTo(2);
    }

    private int count(String sql) {
        AtomicInteger count = sent.get(sql);
        return count == null ? 0 : count.get();
    }

    private PostgresLockStore store(Pool pool, PostgresTable table) {
        PostgresLockStore store = new PostgresLockStore(vertx, pool,
                new PostgresLockStoreSettings(table, "lock:", true, false, Duration.ofHours(1), TIMEOUT));
        store.start();
        return store;
    }

    private Pool pool() {
        return PgBuilder.pool()
                .connectingTo(PgConnectOptions
                        .fromUri("postgresql://127.0.0.1:" + proxy.port() + "/" + PostgresServer.DATABASE)
                        .setUser(PostgresServer.SUPERUSER).setPassword(PostgresServer.SUPERUSER_PASSWORD))
                .with(new PoolOptions().setMaxSize(2))
                .using(io.vertx.mutiny.core.Vertx.newInstance(vertx)).build();
    }
}
