package io.quarkiverse.lock.runtime.store.redis;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.assertAcquirableSoon;
import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.Subscriptions;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.ThreadingModel;
import io.vertx.redis.client.Redis;

/**
 * Break tests for the issue 14 change, on a real redis-server. Each asserts what the design promises and fails on
 * the change as it is; the class Javadoc of each test method gives the interleaving.
 */
class RedisBreakTest {

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    /**
     * A release that never reaches Redis (the connection swallows it; it times out) leaves a lock acquired forever
     * held for ever: the handle cleared its hold before sending, nothing retries, and the handle's own
     * {@code release()} then answers {@code false}. Take-backs retry; releases do not.
     */
    @Test
    void aLockAcquiredForeverWhoseReleaseIsLostIsNotHeldForEver() throws Exception {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(1));
        String key = "release-lost-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        assertThat(await(lock.acquireForever())).isTrue();
        proxy.swallow(true);
        assertThatThrownBy(() -> await(lock.release())).isInstanceOf(LockException.class);
        proxy.swallow(false);
        boolean retried = await(lock.release().onFailure().recoverWithItem(false));
        System.out.printf("[break] release failed; handle's second release() answered %s; %s%n",
                retried, redis.keyInRedis(key));
        assertAcquirableSoon(registry, key);
    }

    /**
     * A cancelled {@code acquireAndExecute} whose release was waiting in the channel's queue (1000 commands in
     * flight) is never sent: the release Uni is cancelled, {@code RedisCommandPipeline} drops a queued command whose caller
     * cancelled, and the hold was already cleared. The lock stays held for its whole lease (renewal stopped), nobody
     * tracks it. The guide: "a cancelled acquire or acquireAndExecute never leaves the lock held".
     */
    @Test
    void aCancelledSectionWhoseReleaseWasQueuedDoesNotLeaveTheLockHeld() throws Exception {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(20));
        String key = "queued-release-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        CompletableFuture<String> actionDone = new CompletableFuture<>();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Cancellable section = lock.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(60),
                Uni.createFrom().completionStage(actionDone))
                .subscribe().with(outcome::set, outcome::set);
        awaitHeld(key);

        AtomicBoolean delayed = new AtomicBoolean();
        proxy.rule(exchange -> exchange.request() != null && exchange.request().contains("blocker")
                && delayed.compareAndSet(false, true) ? Fault.delay(Duration.ofSeconds(3)) : Fault.pass());
        for (int i = 0; i < RedisCommandPipeline.MAX_IN_FLIGHT + 100; i++) {
            registry.store().isHeld("blocker", "nobody").subscribe().with(ignored -> {
            }, ignored -> {
            });
        }
        Thread.sleep(300);
        actionDone.complete("done");
        section.cancel();
        Thread.sleep(4_000);
        System.out.printf("[break] section cancelled while its release was queued; outcome %s; %s%n", outcome.get(),
                redis.keyInRedis(key));
        assertAcquirableSoon(registry, key);
    }

    /**
     * {@code CallerContext} delivers results on the context the operation started on. On a Vert.x worker context
     * (a worker verticle, ordered tasks), the blocking view blocks that context's current task waiting for a delivery
     * queued behind that very task: the call never returns (before the change, a one-try acquisition on Redis
     * completed on the connection's event loop).
     */
    @Test
    void aBlockingAcquisitionOnAWorkerVerticleReturns() throws Exception {
        DefaultLockRegistry registry = redis.registry(redis.store(), Duration.ofSeconds(1));
        String key = "worker-" + UUID.randomUUID();
        CompletableFuture<Boolean> acquired = new CompletableFuture<>();
        redis.vertx().deployVerticle(new AbstractVerticle() {
            @Override
            public void start() {
                try {
                    acquired.complete(registry.obtain(key).withLeaseRenewal(true).toBlocking()
                            .acquire(Duration.ZERO, Duration.ofSeconds(2)));
                } catch (Throwable t) {
                    acquired.completeExceptionally(t);
                }
            }
        }, new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER));
        Boolean result = null;
        try {
            result = acquired.get(10, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            System.out.printf("[break] blocking acquire(0, lease 2 s) on a worker verticle: no result after 10 s; "
                    + "%s (renewed for the hung caller)%n", redis.keyInRedis(key));
        }
        assertThat(result).as("blocking acquireOnce() on a worker context returned").isTrue();
    }

    /**
     * A take-back on a new connection can run before the acquisition it takes back, when the acquisition's bytes were
     * still on their way on the abandoned connection (TCP keeps retransmitting data written before a close). Here:
     * {@code acquireForever} is written, the path holds it, the operation times out, the connection is closed and
     * replaced, the take-back runs on the new one (nothing to take back), and then the old bytes arrive: the lock is
     * granted for ever to an acquisition that gave up. TakeBack's claim "sent ... on a new connection after that one
     * was lost, so the store runs it after the acquisition it takes back" does not hold.
     */
    @Test
    void anAcquisitionDeliveredAfterItsTakeBackIsNotHeldForEver() throws Exception {
        HoldingProxy proxy = redis.holdingProxy(false);
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(1));
        String key = "late-request-" + UUID.randomUUID();
        proxy.holdOpenConnections();
        assertThatThrownBy(() -> await(registry.obtain(key).acquireForever())).isInstanceOf(LockException.class)
                .hasMessageContaining("no answer");
        Thread.sleep(1_000);
        int late = proxy.deliverHeld();
        Thread.sleep(500);
        System.out.printf("[break] %d bytes of the abandoned connection delivered after the take-back; %s%n", late,
                redis.keyInRedis(key));
        assertAcquirableSoon(registry, key);
    }

    /**
     * Cancel racing an attempt: {@code AcquireOperation.attempt()} sets {@code attempted} before the store call, and
     * {@code inFlight} only after {@code subscribe()} returns. A cancel in between sees {@code inFlight == null} (it
     * cannot stop the call) and sends the take-back, which reaches Redis first; the attempt then puts this
     * acquisition in Redis's line. Its reply (not acquired) is ignored; nothing takes it back. The holder's release
     * hands the lock to the gone waiter (its place still runs), and the lock is held for that waiter's whole lease by
     * nobody. The test holds the attempting thread at that point (as a preemption would) with a store decorator.
     */
    @Test
    void aCancellationRacingAnAttemptLeavesNoGhostInLine() throws Exception {
        PausingStore pausing = new PausingStore(redis.store());
        DefaultLockRegistry registry = redis.registry(pausing, Duration.ofSeconds(5));
        String key = "ghost-" + UUID.randomUUID();
        ReactiveDistributedLock holder = registry.obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();

        ReactiveDistributedLock waiter = registry.obtain(key);
        AtomicReference<UniSubscription> subscription = new AtomicReference<>();
        pausing.pauseNextAcquire();
        Thread attempting = new Thread(() -> Subscriptions.subscribe(waiter.acquire(Duration.ofSeconds(5),
                Duration.ofSeconds(30)), subscription::set), "attempting");
        attempting.start();
        assertThat(pausing.reached.await(5, TimeUnit.SECONDS)).as("the attempt started").isTrue();
        subscription.get().cancel();
        pausing.gate.countDown();
        attempting.join(5_000);
        assertThat(pausing.takenBack.await(5, TimeUnit.SECONDS)).as("the cancel's take-back ran").isTrue();
        Thread.sleep(200);
        System.out.printf("[break] line after the cancelled attempt: %s%n",
                redis.server().send("ZCARD lock:{" + key + "}:line"));
        assertThat(await(holder.release())).isTrue();
        Thread.sleep(200);
        System.out.printf("[break] after the holder's release: %s%n",
                redis.keyInRedis(key));
        assertAcquirableSoon(registry, key);
    }

    /**
     * The same race as {@link #aCancellationRacingAnAttemptLeavesNoGhostInLine()}, without any help: a plain thread
     * subscribes a waiting acquisition (its first attempt runs in {@code subscribe()}), another cancels it at once.
     * After each round the holder releases. A cancelled acquisition's take-back goes once its attempt is answered, so
     * the release may hand the lock to it first; the take-back must then free the lock promptly. A key still held a
     * second after the release was handed to a cancelled acquisition and kept.
     */
    @Test
    void cancellationsRacingFirstAttemptsLeaveNoGhosts() throws Exception {
        DefaultLockRegistry registry = redis.registry(redis.store(), Duration.ofSeconds(5));
        int rounds = Integer.getInteger("break.rounds", 1500);
        int ghosts = 0;
        int handedToCancelled = 0;
        for (int i = 0; i < rounds; i++) {
            String key = "race-" + i + "-" + UUID.randomUUID();
            ReactiveDistributedLock holder = registry.obtain(key);
            assertThat(await(holder.acquireOnce())).isTrue();
            ReactiveDistributedLock waiter = registry.obtain(key);
            AtomicReference<UniSubscription> subscription = new AtomicReference<>();
            int spins = i % 200;
            Thread canceller = new Thread(() -> {
                UniSubscription s;
                while ((s = subscription.get()) == null) {
                    Thread.onSpinWait();
                }
                for (int k = 0; k < spins; k++) {
                    Thread.onSpinWait();
                }
                s.cancel();
            });
            canceller.start();
            Subscriptions.subscribe(waiter.acquire(Duration.ofSeconds(5), Duration.ofSeconds(30)), subscription::set);
            canceller.join();
            assertThat(await(holder.release())).isTrue();
            if (!"$-1".equals(redis.server().send("GET lock:{" + key + "}"))) {
                handedToCancelled++;
                long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
                while (!"$-1".equals(redis.server().send("GET lock:{" + key + "}")) && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                if (!"$-1".equals(redis.server().send("GET lock:{" + key + "}"))) {
                    ghosts++;
                    redis.server().send("DEL lock:{" + key + "}");
                }
            }
        }
        System.out.printf("[break] %d rounds: the release handed the lock to a cancelled acquisition %d times; "
                + "%d of those kept it for more than a second%n", rounds, handedToCancelled, ghosts);
        assertThat(ghosts).as("locks handed to a cancelled acquisition and held by nobody").isZero();
    }

    private void awaitHeld(String key) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!":1".equals(redis.server().send("EXISTS lock:{" + key + "}"))) {
            assertThat(System.nanoTime()).as("acquired").isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
