package io.quarkiverse.lock.runtime.store.redis;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.assertAcquirableSoon;
import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Context;
import io.vertx.redis.client.Redis;

/**
 * Second round of break tests for the issue 14 change, after the fixes of the first review (5cc0be4). Real
 * redis-server; each test asserts what the design promises ("every path on which the store may have granted without
 * the caller knowing ends with a take-back, so no lock stays held that no handle tracks") and prints what it saw.
 */
class RedisBreak2Test {

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    /**
     * "Commands reach the server in the order send was called ... the connection is written only under this object's
     * lock, in queue order" does not hold: {@code RedisStandaloneConnection.send} runs {@code context.execute(..)},
     * which writes at once on the connection's own event loop but only posts a task from any other thread. A command
     * written under the lock from event loop X is a task waiting in the connection's loop L; a command written later
     * under the lock from L itself goes to the socket first.
     * <p>
     * Here: {@code acquireForever()} is subscribed on X (its attempt is handed to the connection: a task posted to L);
     * the caller cancels it from a task running on L (any code of the application on that loop: a request, a timer,
     * a reply). The cancel sends the take-back, written at once on L; then L runs the posted attempt. Redis runs the
     * take-back (nothing to take back), then the acquisition: the lock is held for ever by an acquisition that was
     * cancelled, and nothing takes it back (the cancelled attempt's reply is dropped).
     */
    @Test
    void aTakeBackWrittenOnTheConnectionsOwnLoopDoesNotOvertakeItsAttempt() throws Exception {
        RedisLockStore store = redis.store();
        DefaultLockRegistry registry = redis.registry(store, Duration.ofSeconds(5));
        Context connectionLoop = connectionContext(store);
        Context otherLoop = contextOnAnotherThread(connectionLoop);
        Context cancellingLoop = Boolean.getBoolean("break2.control") ? contextOnAnotherThread(connectionLoop)
                : connectionLoop;
        System.out.printf("[break2] connection's loop %s, subscribing loop %s, cancelling loop %s%n",
                threadOf(connectionLoop), threadOf(otherLoop), threadOf(cancellingLoop));
        java.util.Queue<String> monitor = monitor();
        int rounds = Integer.getInteger("break2.rounds", 20);
        int ghosts = 0;
        int completedFirst = 0;
        String example = null;
        for (int i = 0; i < rounds; i++) {
            String key = "overtaken-" + i + "-" + UUID.randomUUID();
            ReactiveDistributedLock lock = registry.obtain(key);
            AtomicReference<Cancellable> subscription = new AtomicReference<>();
            AtomicReference<Boolean> delivered = new AtomicReference<>();
            CountDownLatch subscribed = new CountDownLatch(1);
            CountDownLatch cancelled = new CountDownLatch(1);
            cancellingLoop.runOnContext(ignored -> {
                try {
                    // the application's task on L ends up cancelling the acquisition (here: right after it started)
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
                // the acquisition completed before the cancel reached it: its caller was told, the handle holds it
                completedFirst++;
                await(lock.release().onFailure().recoverWithItem(false));
            } else if (":1".equals(redis.server().send("EXISTS lock:{" + key + "}"))) {
                ghosts++;
                example = key;
            }
        }
        if (example != null) {
            Thread.sleep(200);
            System.out.printf("[break2 monitor] %d lines%n", monitor.size());
            for (String line : monitor) {
                if (line.contains(example)
                        && (line.contains("\"evalsha\"") || line.contains("\"eval\"") || line.contains("\"ZREM\"")
                                || line.contains("\"SET\" \"lock:{" + example + "}\""))) {
                    String shown = line.replace(example, "K");
                    System.out.println("[break2 monitor] " + shown.substring(0, Math.min(shown.length(), 150)));
                }
            }
        }
        System.out.printf("[break2] %d of %d acquireForever() cancelled from the connection's event loop right after "
                + "being subscribed on another loop left the key held, nobody told (%d completed before the cancel); "
                + "e.g. %s PTTL %s%n", ghosts, rounds, completedFirst, example,
                example == null ? "-" : redis.server().send("PTTL lock:{" + example + "}"));
        assertThat(ghosts).as("cancelled acquisitions whose lock stays held for ever").isZero();
    }

    /**
     * The replaced connection is killed on the server only when {@code noAnswer} replaced it. When the client sees the
     * connection end ({@code lost()}: a reset or a close), it opens a new one without {@code CLIENT KILL}, and the
     * take-back of an acquisition whose bytes are still on their way on the old connection runs first. Here a middlebox
     * resets the client side while it still holds the acquisition's bytes; the acquisition fails at once ("connection
     * closed"), its take-back runs on a new connection, then the old bytes arrive: held for ever, tracked by nobody.
     */
    @Test
    void aConnectionEndedUnderAnAcquisitionIsKilledBeforeItsTakeBack() throws Exception {
        HoldingProxy proxy = redis.holdingProxy(true);
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(5));
        String key = "ended-" + UUID.randomUUID();
        proxy.holdOpenConnections();
        CompletableFuture<Object> outcome = acquireForever(registry, key);
        Thread.sleep(300);
        proxy.resetHeldClients();
        LateDelivery delivery = outcomeThenLateDelivery(outcome, proxy, 500);
        System.out.printf("[break2] acquireForever ended with %s; %d bytes of the reset connection delivered after the "
                + "take-back; %s%n", delivery.result(), delivery.bytes(), redis.keyInRedis(key));
        assertAcquirableSoon(registry, key);
    }

    /**
     * The replacing connection kills the replaced one only if it learnt its id: {@code CLIENT ID} is the first command
     * on a connection, and on a connection that went silent before answering it {@code connectionId} is still -1, so
     * {@code noAnswer} replaces it with nothing to kill. A path that breaks right as a connection is opened (which is
     * when connections get opened: after a failure) holds its CLIENT ID and the first acquisition; the acquisition
     * times out, its take-back runs on the next connection, the late bytes then grant the lock for ever.
     */
    @Test
    void aReplacedConnectionWhoseIdWasNeverAnsweredIsStillKilled() throws Exception {
        assertLateBytesOfAReplacedConnectionGrantNothing("unknown-id-", "CLIENT ID never answered", proxy -> {
            proxy.cutAll();
            Thread.sleep(200);
            // the next connection passes its handshake (HELLO), then the path holds its bytes
            proxy.holdNextConnections(1, true);
        });
    }

    /**
     * {@code connect()} consumes {@code replacedId} before it knows the new connection works. When the first
     * reconnect fails (the path is still broken), the kill is forgotten: the next connection kills nothing, the
     * take-back runs on it, and the replaced connection's late bytes then grant the lock for ever.
     */
    @Test
    void theKillOfAReplacedConnectionSurvivesAFailedReconnect() throws Exception {
        assertLateBytesOfAReplacedConnectionGrantNothing("kill-forgotten-", "first reconnect refused", proxy -> {
            proxy.holdOpenConnections();
            proxy.refuseNextConnections(1);
        });
    }

    /**
     * A connection that goes silent during its handshake (HELLO/PING) never completes the connect future, and
     * {@code noAnswer} ignores a connection that has not succeeded: every later lock command queues behind it for
     * ever, even once new connections get through. Expected: locks work again soon after the path heals.
     */
    @Test
    void aConnectionSilentDuringItsHandshakeIsReplaced() throws Exception {
        HoldingProxy proxy = redis.holdingProxy(true);
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(1));
        String key = "silent-handshake-" + UUID.randomUUID();
        proxy.cutAll();
        Thread.sleep(200);
        proxy.holdNextConnections(1, false);
        Object first = await(registry.obtain(key).acquireOnce().<Object> map(b -> b).onFailure().recoverWithItem(f -> f));
        // the path heals for every later connection
        long healed = System.nanoTime();
        boolean works = false;
        Object last = null;
        while (!works && System.nanoTime() - healed < Duration.ofSeconds(8).toNanos()) {
            last = await(registry.obtain(key).acquireOnce().<Object> map(b -> b).onFailure().recoverWithItem(f -> f));
            works = Boolean.TRUE.equals(last);
        }
        System.out.printf("[break2] first acquisition: %s; after the path healed, for 8 s: %s (last: %s); connections "
                + "accepted %d%n", first, works ? "locks work" : "every acquisition failed", last,
                proxy.accepted.get());
        assertThat(works).as("locks work once new connections get through").isTrue();
    }

    /**
     * A hand-over counts its lease from the last refused attempt's send, but when the hand-over message arrives before
     * the reply to that refused attempt ({@code refusedSentNanos == 0}), {@code onHandedOver} counts it from the
     * message's arrival: later than the release that started the lease in Redis, by the message's whole latency. A
     * holder whose renewals then stop reaching Redis is told its lock is lost that much after Redis let it go, while
     * another holder already has it. Here: the waiter's first (refused) attempt is answered 1.5 s late, the hand-over
     * message arrives 1 s after the release, then the waiter's connection goes dead. Expected: the waiter's action is
     * ended (LockExpiredException) no later than another handle gets the lock.
     */
    @Test
    void aHandOverHeardBeforeItsRefusalIsNotCountedFromTheMessage() throws Exception {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry waiting = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(5));
        DefaultLockRegistry direct = redis.registry(redis.store(), Duration.ofSeconds(5));
        String key = "hand-over-lease-" + UUID.randomUUID();
        AtomicBoolean replyDelayed = new AtomicBoolean();
        proxy.rule(exchange -> {
            if (exchange.push()) {
                return exchange.reply() != null && exchange.reply().contains("G ") && exchange.reply().contains(key)
                        ? Fault.delay(Duration.ofMillis(1_000))
                        : Fault.pass();
            }
            return exchange.request() != null && exchange.request().contains(key)
                    && replyDelayed.compareAndSet(false, true)
                            ? Fault.delay(Duration.ofMillis(
                                    Boolean.getBoolean("break2.control") ? 0 : 1_500))
                            : Fault.pass();
        });
        ReactiveDistributedLock holder = direct.obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();

        long t0 = System.nanoTime();
        CompletableFuture<Long> actionStarted = new CompletableFuture<>();
        CompletableFuture<Object> waiterOutcome = new CompletableFuture<>();
        AtomicReference<Long> waiterEnded = new AtomicReference<>();
        waiting.obtain(key).withLeaseRenewal(true).acquireAndExecute(Duration.ofSeconds(10), Duration.ofSeconds(2),
                Uni.createFrom().emitter(emitter -> actionStarted.complete(System.nanoTime())))
                .subscribe().with(waiterOutcome::complete, failure -> {
                    waiterEnded.set(System.nanoTime());
                    waiterOutcome.complete(failure);
                });
        Thread.sleep(100);
        assertThat(await(holder.release())).isTrue();
        long released = System.nanoTime();
        long started = actionStarted.get(5, TimeUnit.SECONDS);
        Thread.sleep(Math.max(0, Duration.ofMillis(1_650).toNanos() - (System.nanoTime() - t0)) / 1_000_000);
        // the waiter's path goes dead: its renewals no longer reach Redis
        proxy.swallow(true);
        ReactiveDistributedLock second = direct.obtain(key);
        assertThat(await(second.acquire(Duration.ofSeconds(10), Duration.ofSeconds(30)))).isTrue();
        long secondGot = System.nanoTime();
        Object outcome = waiterOutcome.get(10, TimeUnit.SECONDS);
        long ended = waiterEnded.get() == null ? Long.MAX_VALUE : waiterEnded.get();
        System.out.printf("[break2] release at %d ms; waiter's action started at %d ms (hand-over message); another "
                + "handle got the lock at %d ms; the waiter's action was ended at %d ms (%s): both held it for %d ms%n",
                ms(released - t0), ms(started - t0), ms(secondGot - t0), ms(ended - t0), outcome,
                ms(ended - secondGot));
        assertThat(ended).as("the waiter is told its lock is lost before another holder gets it").isLessThan(secondGot);
    }

    /**
     * Breaks the path with {@code breakPath} (operation timeout 1 s), acquires a key for ever, waits for the
     * acquisition's outcome and its take-back on the next connection, then delivers the bytes the proxy held on the
     * replaced connection: nobody may be left holding the key.
     */
    private void assertLateBytesOfAReplacedConnectionGrantNothing(String keyPrefix, String fault, PathBreak breakPath)
            throws Exception {
        HoldingProxy proxy = redis.holdingProxy(true);
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(1));
        String key = keyPrefix + UUID.randomUUID();
        breakPath.apply(proxy);
        LateDelivery delivery = outcomeThenLateDelivery(acquireForever(registry, key), proxy, 1_000);
        System.out.printf("[break2] %s: acquireForever ended with %s; %d bytes of the replaced connection delivered "
                + "after the take-back; connections accepted %d; %s%n", fault, delivery.result(), delivery.bytes(),
                proxy.accepted.get(), redis.keyInRedis(key));
        assertAcquirableSoon(registry, key);
    }

    /** What breaks the path before the acquisition. */
    private interface PathBreak {
        void apply(HoldingProxy proxy) throws Exception;
    }

    /** Subscribes {@code acquireForever()} on {@code key}; the future completes with its item or its failure. */
    private static CompletableFuture<Object> acquireForever(DefaultLockRegistry registry, String key) {
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        registry.obtain(key).acquireForever().subscribe().with(outcome::complete, outcome::complete);
        return outcome;
    }

    /**
     * Waits for the acquisition's outcome, lets {@code settleMillis} pass (its take-back runs meanwhile), delivers the
     * bytes the proxy held, and gives them half a second to run.
     */
    private static LateDelivery outcomeThenLateDelivery(CompletableFuture<Object> outcome, HoldingProxy proxy,
            long settleMillis) throws Exception {
        Object result = outcome.get(10, TimeUnit.SECONDS);
        Thread.sleep(settleMillis);
        int late = proxy.deliverHeld();
        Thread.sleep(500);
        return new LateDelivery(result, late);
    }

    /** An acquisition's outcome, and how many bytes of its connection reached Redis after it. */
    private record LateDelivery(Object result, int bytes) {
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }

    private java.util.Queue<String> monitor() throws Exception {
        java.util.Queue<String> lines = new java.util.concurrent.ConcurrentLinkedQueue<>();
        java.net.Socket socket = new java.net.Socket("127.0.0.1", redis.server().port());
        redis.closeAfterEach(socket);
        socket.getOutputStream().write("MONITOR\r\n".getBytes());
        Thread reader = new Thread(() -> {
            try (java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(socket.getInputStream()))) {
                String line;
                while ((line = in.readLine()) != null) {
                    lines.add(line);
                }
            } catch (java.io.IOException ignored) {
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

    /** The event loop that writes the lock connection's commands (the test is in the channel's package). */
    private static Context connectionContext(RedisLockStore store) {
        return store.pipeline().writer();
    }

    private Context contextOnAnotherThread(Context avoid) throws Exception {
        String avoided = threadOf(avoid);
        for (int i = 0; i < 16; i++) {
            Context candidate = ((io.vertx.core.impl.VertxInternal) redis.vertx()).createEventLoopContext();
            if (!threadOf(candidate).equals(avoided)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no event loop other than " + avoided);
    }

    private static Object storeOf(DefaultLockRegistry registry) {
        return registry.store();
    }

    private static String threadOf(Context context) throws Exception {
        CompletableFuture<String> name = new CompletableFuture<>();
        context.runOnContext(ignored -> name.complete(Thread.currentThread().getName()));
        return name.get(5, TimeUnit.SECONDS);
    }
}
