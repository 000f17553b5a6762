package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;

/**
 * A server that has not seen a script (just started, restarted, failed over) answers a call by SHA-1 with
 * {@code NOSCRIPT}, and the call is sent again with the script's source: behind everything sent meanwhile. Before
 * connections loaded the scripts, a take-over answered {@code NOSCRIPT} ran after an acquisition sent after it on the
 * same connection (its script already known): the acquisition was granted, then lost to the take-over, although the
 * take-over came first. A take-back sent after a cancelled attempt could overtake it the same way.
 */
class ScriptsLoadedOnConnectTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private RedisServer server;
    private Vertx vertx;
    private Redis redis;
    private RedisLockStore store;

    @BeforeEach
    void start() {
        server = RedisServer.start();
        vertx = Vertx.vertx();
        redis = Redis.createClient(vertx, new RedisOptions().setConnectionString(server.uri()));
        store = new RedisLockStore(vertx, redis, "lock:", Duration.ofHours(1).toMillis(), false);
    }

    @AfterEach
    void stop() {
        store.close();
        redis.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
        server.close();
    }

    @Test
    void commandsRunInTheOrderSentOnAServerThatHasNotSeenTheScripts() {
        assertThat(await(store.tryAcquire("warm-up", "w", 60_000, false)).acquired()).isTrue();

        Uni<AcquireResult> takeOver = store.takeOver("ordered", "first", 60_000).memoize().indefinitely();
        takeOver.subscribe().with(ignored -> {
        });
        AcquireResult second = await(store.tryAcquire("ordered", "second", 60_000, false));
        AcquireResult first = await(takeOver);

        assertThat(first.acquired()).as("the take-over sent first").isTrue();
        assertThat(second.acquired()).as("the acquisition sent after the take-over finds the lock taken").isFalse();
        assertThat(await(store.isHeld("ordered", "first"))).isTrue();
    }

    private static <T> T await(Uni<T> operation) {
        return operation.await().atMost(TIMEOUT);
    }
}
