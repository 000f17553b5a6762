package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.redis.runtime.client.ObservableRedis;
import io.quarkus.redis.runtime.client.ObservableRedisMetrics;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;

/**
 * The Vert.x Redis client opens its connections on the event loop of the context it was created on. The pipeline's
 * writer moves to that loop once its connection is ready: written on another loop, each command crossed threads twice
 * (the write queued to the connection's loop, the reply queued back), which halved the uncontended throughput. This
 * test fails when a Vert.x or Quarkus upgrade breaks {@link ConnectionLoop}'s reflection on their private classes.
 */
class WriterOnConnectionLoopTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    final RedisLocks locks = new RedisLocks();

    private Context clientContext;
    private RedisLockStore store;

    /**
     * @param observed whether the client is wrapped as Quarkus's Redis client wraps it (each connection inside an
     *        observing one), as the application's store gets it
     */
    private void createStore(boolean observed) throws Exception {
        Vertx vertx = locks.vertx();
        clientContext = ((VertxInternal) vertx).createEventLoopContext();
        CompletableFuture<Redis> created = new CompletableFuture<>();
        clientContext.runOnContext(ignored -> created
                .complete(Redis.createClient(vertx, new RedisOptions().setConnectionString(locks.server().uri()))));
        Redis redis = created.get(5, TimeUnit.SECONDS);
        locks.closeAfterEach(redis::close);
        Redis client = observed ? new ObservableRedis(redis, "locks", ObservableRedisMetrics.NOOP) : redis;
        store = new RedisLockStore(vertx, client, "lock:", Duration.ofHours(1).toMillis(), false);
        locks.closeAfterEach(store::close);
    }

    @ParameterizedTest(name = "observed client: {0}")
    @ValueSource(booleans = { false, true })
    void commandsAreWrittenAndAnsweredOnTheConnectionsLoop(boolean observed) throws Exception {
        createStore(observed);
        String connectionLoop = threadOf(clientContext);
        // Before any connection the writer has a loop of its own (round robin): the case worth testing.
        assumeThat(threadOf(store.pipeline("warm-up").writer())).isNotEqualTo(connectionLoop);

        assertThat(store.tryAcquire("warm-up", "w", 60_000, false).await().atMost(TIMEOUT).acquired()).isTrue();

        assertThat(threadOf(store.pipeline("warm-up").writer())).isEqualTo(connectionLoop);
        CompletableFuture<String> answeredOn = new CompletableFuture<>();
        store.pipeline("warm-up").writer().runOnContext(ignored -> store.release("warm-up", "w").subscribe()
                .with(released -> answeredOn.complete(Thread.currentThread().getName()), answeredOn::completeExceptionally));
        assertThat(answeredOn.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(connectionLoop);
    }

    private static String threadOf(Context context) throws Exception {
        CompletableFuture<String> name = new CompletableFuture<>();
        context.runOnContext(ignored -> name.complete(Thread.currentThread().getName()));
        return name.get(5, TimeUnit.SECONDS);
    }
}
