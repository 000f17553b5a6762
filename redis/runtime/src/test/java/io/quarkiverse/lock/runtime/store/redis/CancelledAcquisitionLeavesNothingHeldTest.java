package io.quarkiverse.lock.runtime.store.redis;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.Subscriptions;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.core.Context;
import io.vertx.core.impl.VertxInternal;

/**
 * A cancelled acquisition or section never leaves the lock held, nor a waiter in Redis's line, however the
 * cancellation races the commands it undoes.
 */
class CancelledAcquisitionLeavesNothingHeldTest {

    private static final int RACING_ROUNDS = 1500;
    private static final int LOOP_ROUNDS = 20;

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    /**
     * The section is cancelled while its release waits in the pipeline's queue behind
     * {@link RedisCommandPipeline#MAX_IN_FLIGHT} commands: the queue drops a command whose caller went away, so the
     * release must not depend on its caller.
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
        redis.awaitHeld(key);

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

        redis.assertAcquirableSoon(registry, key, "section cancelled while its release was queued, outcome "
                + outcome.get());
    }

    /**
     * A cancel that comes after the attempt began but before the store call is subscribed cannot stop the call: its
     * take-back reaches Redis first, and the attempt then puts the gone acquisition in line, so the holder's release
     * would hand it the lock. A store decorator holds the attempting thread at that point, as a preemption would.
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
        String line = redis.server().send("ZCARD lock:{" + key + "}:line");
        assertThat(await(holder.release())).isTrue();
        Thread.sleep(200);

        redis.assertAcquirableSoon(registry, key, "waiters in line after the cancelled attempt: " + line
                + "; the holder released");
    }

    /**
     * The same race without help, many times: a plain thread subscribes a waiting acquisition (its first attempt runs
     * in {@code subscribe()}), another cancels it at once, then the holder releases. The release may hand the lock to
     * the cancelled acquisition, whose take-back must then free it within a second.
     */
    @Test
    void cancellationsRacingFirstAttemptsLeaveNoGhosts() throws Exception {
        DefaultLockRegistry registry = redis.registry(redis.store(), Duration.ofSeconds(5));
        int ghosts = 0;
        int handedToCancelled = 0;
        for (int i = 0; i < RACING_ROUNDS; i++) {
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
        assertThat(ghosts).as("of %d rounds, the release handed the lock to a cancelled acquisition %d times; locks "
                + "that one then kept for over a second", RACING_ROUNDS, handedToCancelled).isZero();
    }

    /**
     * The acquisition is subscribed on one event loop and cancelled from a task on the connection's own loop, where
     * Vert.x writes at once while a write from elsewhere waits as a task: the take-back must still reach Redis after
     * the attempt it takes back.
     */
    @Test
    void aTakeBackWrittenOnTheConnectionsOwnLoopDoesNotOvertakeItsAttempt() throws Exception {
        RedisLockStore store = redis.store();
        DefaultLockRegistry registry = redis.registry(store, Duration.ofSeconds(5));
        RedisCommandPipeline pipeline = store.pipeline("overtaken");
        Context connectionLoop = pipeline.writer();
        Context otherLoop = contextOnAnotherThread(connectionLoop);
        Queue<String> monitor = monitor();
        int ghosts = 0;
        int completedFirst = 0;
        String example = null;
        for (int i = 0; i < LOOP_ROUNDS; i++) {
            String key = keyOn(store, pipeline, "overtaken-" + i + "-");
            ReactiveDistributedLock lock = registry.obtain(key);
            AtomicReference<Cancellable> subscription = new AtomicReference<>();
            AtomicReference<Boolean> delivered = new AtomicReference<>();
            CountDownLatch subscribed = new CountDownLatch(1);
            CountDownLatch cancelled = new CountDownLatch(1);
            connectionLoop.runOnContext(ignored -> {
                try {
                    // the application's task on the connection's loop cancels the acquisition right after it started
                    subscribed.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                subscription.get().cancel();
                cancelled.countDown();
            });
            otherLoop.runOnContext(ignored -> {
                subscription.set(lock.acquireForever().subscribe().with(delivered::set, failure -> {
                }));
                subscribed.countDown();
            });
            assertThat(cancelled.await(10, TimeUnit.SECONDS)).isTrue();
            await(registry.store().ping());
            Thread.sleep(20);
            if (delivered.get() != null) {
                // completed before the cancel reached it: its caller was told, and the handle holds it
                completedFirst++;
                await(lock.release().onFailure().recoverWithItem(false));
            } else if (":1".equals(redis.server().send("EXISTS lock:{" + key + "}"))) {
                ghosts++;
                example = key;
            }
        }
        assertThat(ghosts).as("of %d acquisitions cancelled from the connection's loop (%d completed first), those "
                + "left held for ever; Redis saw for one of them: %s", LOOP_ROUNDS, completedFirst,
                commandsOn(monitor, example)).isZero();
    }

    /** The lock commands Redis's {@code MONITOR} saw on {@code key}, its name shortened to K, or "-" for none. */
    private static String commandsOn(Queue<String> monitor, String key) throws InterruptedException {
        if (key == null) {
            return "-";
        }
        Thread.sleep(200);
        StringBuilder seen = new StringBuilder();
        for (String line : monitor) {
            if (line.contains(key) && (line.contains("\"evalsha\"") || line.contains("\"eval\"")
                    || line.contains("\"ZREM\"") || line.contains("\"SET\" \"lock:{" + key + "}\""))) {
                String shown = line.replace(key, "K");
                seen.append('\n').append(shown, 0, Math.min(shown.length(), 150));
            }
        }
        return seen.toString();
    }

    private Queue<String> monitor() throws Exception {
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        Socket socket = new Socket("127.0.0.1", redis.server().port());
        redis.closeAfterEach(socket);
        socket.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the socket closes after the test
            }
        });
        reader.setDaemon(true);
        reader.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (lines.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return lines;
    }

    private Context contextOnAnotherThread(Context avoid) throws Exception {
        String avoided = threadOf(avoid);
        for (int i = 0; i < 16; i++) {
            Context candidate = ((VertxInternal) redis.vertx()).createEventLoopContext();
            if (!threadOf(candidate).equals(avoided)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no event loop other than " + avoided);
    }

    private static String threadOf(Context context) throws Exception {
        CompletableFuture<String> name = new CompletableFuture<>();
        context.runOnContext(ignored -> name.complete(Thread.currentThread().getName()));
        return name.get(5, TimeUnit.SECONDS);
    }

    /** @return a new key whose commands go over {@code pipeline}, the connection whose loop the test knows */
    private static String keyOn(RedisLockStore store, RedisCommandPipeline pipeline, String prefix) {
        String key;
        do {
            key = prefix + UUID.randomUUID();
        } while (store.pipeline(key) != pipeline);
        return key;
    }
}
