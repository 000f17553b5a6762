package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.redis.RedisKeys;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Ownership per acquisition on a real redis-server: a hand-over message meant for an earlier acquisition of a handle
 * never completes a later one; a burst larger than the client's command queue is served in full; a waiter behind a
 * dead waiter's place does not poll every millisecond; keys whose Redis keys used to collide lock independently; and
 * an acquisition resumes on the Vert.x context it started on.
 */
class RedisOwnershipTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final long HOUR = Duration.ofHours(1).toMillis();

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.ownedBy(RedisOwnershipTest.class);

    @Inject
    LockRegistry registry;

    @Inject
    LockSettings settings;

    @Inject
    Vertx vertx;

    @Inject
    Redis redis;

    @Test
    void aLateHandOverMessageForAnEarlierAcquisitionNeverCompletesALaterOne() throws Exception {
        String key = "late-hand-over-" + UUID.randomUUID();
        List<String> handOvers = new CopyOnWriteArrayList<>();
        RedisConnection subscriber = subscribe(settings.keyPrefix() + "released", message -> {
            if (message.startsWith("G ") && message.endsWith(" " + key)) {
                handOvers.add(message);
            }
        });
        // Another instance that hears no release messages: it finds a hand-over by asking the store.
        LocalLockStates otherStates = new LocalLockStates();
        DefaultLockRegistry other = new DefaultLockRegistry(
                new RedisLockStore(vertx, redis, settings.keyPrefix(), HOUR, false), settings,
                new BackoffWaitStrategy(vertx), otherStates, vertx);
        other.start();
        try {
            ReactiveDistributedLock holder = registry.obtain(key);
            assertThat(await(holder.acquireOnce())).isTrue();
            ReactiveDistributedLock b = other.obtain(key);
            CompletableFuture<Boolean> first = b.acquire(Duration.ofSeconds(10)).subscribeAsCompletionStage();
            Thread.sleep(200);
            assertThat(await(holder.release())).isTrue();
            assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
            awaitTrue(() -> !handOvers.isEmpty());
            assertThat(await(b.release())).isTrue();

            ReactiveDistributedLock c = registry.obtain(key);
            assertThat(await(c.acquireOnce())).isTrue();
            CompletableFuture<Boolean> second = b.acquire(Duration.ofSeconds(2)).subscribeAsCompletionStage();
            Thread.sleep(100);
            String[] late = handOvers.get(0).split(" ", 4);
            otherStates.handedOver(late[3], late[1], Long.parseLong(late[2]));

            assertThat(second.get(10, TimeUnit.SECONDS)).as("the late message completed nothing").isFalse();
            assertThat(await(c.isAcquired())).isTrue();
            assertThat(await(c.release())).isTrue();
        } finally {
            other.close();
            subscriber.close();
        }
    }

    @Test
    void aBurstLargerThanTheClientsCommandQueueIsServedInFull() {
        String prefix = "burst-" + UUID.randomUUID() + "-";
        List<ReactiveDistributedLock> locks = new ArrayList<>();
        List<Uni<Boolean>> acquisitions = new ArrayList<>();
        for (int i = 0; i < 15_000; i++) {
            ReactiveDistributedLock lock = registry.obtain(prefix + i);
            locks.add(lock);
            acquisitions.add(lock.acquireOnce());
        }
        List<Boolean> acquired = Uni.join().all(acquisitions).andFailFast().await().atMost(TIMEOUT);
        assertThat(acquired).containsOnly(true);

        List<Uni<Boolean>> releases = new ArrayList<>();
        for (ReactiveDistributedLock lock : locks) {
            releases.add(lock.release());
        }
        List<Boolean> released = Uni.join().all(releases).andFailFast().await().atMost(TIMEOUT);
        assertThat(released).containsOnly(true);
        Response left = send(Request.cmd(Command.KEYS).arg(settings.keyPrefix() + "{" + prefix + "*}"));
        assertThat(left.size()).as("lock keys left in Redis").isZero();
    }

    @Test
    void aWaiterBehindADeadWaitersPlaceDoesNotPollEveryMillisecond() {
        String key = "dead-waiter-" + UUID.randomUUID();
        RedisKeys keys = RedisKeys.of(settings.keyPrefix(), key);
        Response time = send(Request.cmd(Command.TIME));
        long nowMicros = time.get(0).toLong() * 1_000_000 + time.get(1).toLong();
        // A waiter of an instance that died: first in line, its place running one more second.
        send(Request.cmd(Command.ZADD).arg(keys.line()).arg(nowMicros).arg("dead-waiter"));
        send(Request.cmd(Command.HSET).arg(keys.places()).arg("dead-waiter")
                .arg((nowMicros / 1000 + 1000) + ":30000"));
        send(Request.cmd(Command.CONFIG).arg("RESETSTAT"));

        ReactiveDistributedLock waiter = registry.obtain(key);
        assertThat(await(waiter.acquire(Duration.ofSeconds(5)))).isTrue();
        long scriptCalls = scriptCalls();
        System.out.printf("%d script calls while waiting about 1 s behind a dead waiter's place%n", scriptCalls);
        assertThat(scriptCalls).isLessThan(100);
        assertThat(await(waiter.release())).isTrue();
    }

    @Test
    void keysWhoseRedisKeysUsedToCollideLockIndependently() {
        String key = "a}e6xt16w7kycn";
        String other = key + ":line";
        ReactiveDistributedLock first = registry.obtain(other);
        ReactiveDistributedLock second = registry.obtain(key);
        assertThat(await(first.acquireOnce())).isTrue();
        assertThat(await(second.acquire(Duration.ofMillis(200)))).isTrue();
        assertThat(await(first.release())).isTrue();
        assertThat(await(second.release())).isTrue();
    }

    @Test
    void anAcquisitionResumesOnTheVertxContextItStartedOn() throws Exception {
        String key = "context-" + UUID.randomUUID();
        Context caller = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        CompletableFuture<Context> resumedOn = new CompletableFuture<>();
        caller.runOnContext(ignored -> registry.obtain(key).acquireOnce().subscribe()
                .with(acquired -> resumedOn.complete(Vertx.currentContext()), resumedOn::completeExceptionally));
        assertThat(resumedOn.get(10, TimeUnit.SECONDS)).isSameAs(caller);

        ReactiveDistributedLock holder = registry.obtain(key + "-handed-over");
        assertThat(await(holder.acquireOnce())).isTrue();
        CompletableFuture<Context> handedOverOn = new CompletableFuture<>();
        caller.runOnContext(ignored -> registry.obtain(key + "-handed-over").acquire(Duration.ofSeconds(10))
                .subscribe().with(acquired -> handedOverOn.complete(Vertx.currentContext()),
                        handedOverOn::completeExceptionally));
        Thread.sleep(200);
        assertThat(await(holder.release())).isTrue();
        assertThat(handedOverOn.get(10, TimeUnit.SECONDS)).isSameAs(caller);
    }

    private long scriptCalls() {
        String stats = send(Request.cmd(Command.INFO).arg("commandstats")).toString();
        long calls = 0;
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                String field = line.substring(line.indexOf("calls=") + 6);
                calls += Long.parseLong(field.substring(0, field.indexOf(',')));
            }
        }
        return calls;
    }

    private Response send(Request request) {
        return Uni.createFrom().completionStage(() -> redis.send(request).toCompletionStage()).await().atMost(TIMEOUT);
    }

    private RedisConnection subscribe(String channel, Consumer<String> onMessage) {
        RedisConnection connection = Uni.createFrom()
                .completionStage(() -> redis.connect().toCompletionStage()).await().atMost(TIMEOUT);
        connection.handler(message -> {
            if (message.size() == 3 && "message".equals(message.get(0).toString())) {
                onMessage.accept(message.get(2).toString());
            }
        });
        Uni.createFrom().completionStage(() -> connection.send(Request.cmd(Command.SUBSCRIBE).arg(channel))
                .toCompletionStage()).await().atMost(TIMEOUT);
        return connection;
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition still false").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }
}
