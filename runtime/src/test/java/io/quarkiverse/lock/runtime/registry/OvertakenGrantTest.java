package io.quarkiverse.lock.runtime.registry;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;

/**
 * The randomized fault test's OVERLAP on one handle (seed 20261130): two acquisitions of one single-entrant handle at
 * once, an overriding handle taking the lock from the first between its grant and its action. The second acquisition
 * is then granted and replaces the first's hold; the first's action, delivered late on its caller's busy event loop,
 * started anyway and read the second hold's fencing token as its own, so two actions ran "under" one token. And a
 * grant whose reply comes after a later grant to the same handle replaced that later hold, leaving the later grant
 * held in the store by nobody: for ever, after {@code acquireForever}.
 */
class OvertakenGrantTest {

    private final HeldReplies store = new HeldReplies();

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory().decorating((vertx, inMemory) -> store.on(inMemory));

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void anActionWhoseHoldWasReplacedBeforeItStartedDoesNotRun(boolean renew) throws Exception {
        String key = "replaced-before-action-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.SINGLE_ENTRANT).withLeaseRenewal(renew);
        CompletableFuture<OptionalLong> actionRan = new CompletableFuture<>();
        CompletableFuture<Throwable> first = new CompletableFuture<>();
        CountDownLatch loopBusy = new CountDownLatch(1);
        CountDownLatch freeLoop = new CountDownLatch(1);
        Context caller = locks.vertx().getOrCreateContext();
        store.holdNextReply();
        caller.runOnContext(ignored -> {
            lock.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(10),
                    Uni.createFrom().item(() -> actionRan.complete(lock.fencingToken())))
                    .subscribe().with(item -> first.complete(null), first::complete);
            loopBusy.countDown();
            awaitLatch(freeLoop);
        });
        assertThat(loopBusy.await(5, TimeUnit.SECONDS)).isTrue();
        store.deliverHeldReply();
        OptionalLong firstToken = lock.fencingToken();
        assertThat(firstToken).as("the first grant is the handle's hold, its action not started yet").isPresent();

        takeOverAndFree(key);
        OptionalLong secondToken = await(lock.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(10),
                Uni.createFrom().item(lock::fencingToken)));
        assertThat(secondToken.orElseThrow()).isGreaterThan(firstToken.getAsLong());
        freeLoop.countDown();

        assertThat(first.get(5, TimeUnit.SECONDS)).isInstanceOf(LockExpiredException.class);
        assertThat(actionRan).as("the first action never started").isNotDone();
        assertThat(await(locks.registry().obtain(key, LockType.SINGLE_ENTRANT).acquireOnce())).isTrue();
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void aGrantRepliedAfterALaterGrantToTheSameHandleDoesNotReplaceIt(boolean renew) throws Exception {
        String key = "stale-grant-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.SINGLE_ENTRANT).withLeaseRenewal(renew);
        store.holdNextReply();
        CompletableFuture<Boolean> stale = lock.acquireOnce().subscribeAsCompletionStage();
        assertThat(store.heldReplyGranted()).as("the store granted the first acquisition").isTrue();

        takeOverAndFree(key);
        assertThat(await(lock.acquireForever())).isTrue();
        long laterToken = lock.fencingToken().orElseThrow();
        store.deliverHeldReply();

        assertThat(stale.get(5, TimeUnit.SECONDS)).as("the stale grant is not acquired").isFalse();
        assertThat(lock.fencingToken()).hasValue(laterToken);
        assertThat(await(lock.release())).isTrue();
        assertThat(await(locks.registry().obtain(key, LockType.SINGLE_ENTRANT).acquireOnce()))
                .as("nothing of the handle stays held").isTrue();
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void aBlockingSectionWhoseHoldWasReplacedDoesNotRun(boolean renew) throws Exception {
        String key = "blocking-replaced-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.SINGLE_ENTRANT).withLeaseRenewal(renew);
        AtomicReference<Boolean> ran = new AtomicReference<>(false);
        BlockingLockView.Claim claim = GuardedExecution.sections((LockHandle) lock).claim(Duration.ZERO,
                Duration.ofSeconds(10));
        assertThat(await(claim.acquisition())).isTrue();
        takeOverAndFree(key);
        assertThat(await(lock.acquireOnce())).isTrue();

        assertThatThrownBy(() -> claim.run(() -> ran.getAndSet(true))).isInstanceOf(LockExpiredException.class);
        assertThat(ran.get()).isFalse();
        assertThatThrownBy(() -> await(claim.release())).as("the section's hold was lost to the later grant")
                .isInstanceOf(LockExpiredException.class);
        assertThat(await(lock.release())).isTrue();
    }

    /**
     * The stale check compares a grant only with the hold the handle has at that moment. A grant overtaken by a later
     * grant to the same handle, whose reply comes once that later hold was released, is taken as acquired: the handle
     * knew a higher token, yet its fencing token goes back, and another handle holds the lock at the same time.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void aStaleGrantRepliedAfterTheLaterHoldWasReleasedIsNotAcquired(boolean renew) throws Exception {
        String key = "stale-after-release-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.SINGLE_ENTRANT).withLeaseRenewal(renew);
        store.holdNextReply();
        CompletableFuture<Boolean> stale = lock.acquireOnce().subscribeAsCompletionStage();
        assertThat(store.heldReplyGranted()).as("the store granted the first acquisition").isTrue();

        takeOverAndFree(key);
        assertThat(await(lock.acquireOnce())).isTrue();
        long laterToken = lock.fencingToken().orElseThrow();
        assertThat(await(lock.release())).isTrue();
        store.deliverHeldReply();

        boolean staleAcquired = stale.get(5, TimeUnit.SECONDS);
        OptionalLong tokenAfter = lock.fencingToken();
        boolean otherAcquired = await(locks.registry().obtain(key, LockType.SINGLE_ENTRANT).acquireOnce());
        assertThat(staleAcquired)
                .as("a grant older than one this handle already had and released is stale (handle token now %s, "
                        + "after %s; another handle acquired meanwhile: %s)", tokenAfter, laterToken, otherAcquired)
                .isFalse();
        assertThat(tokenAfter.orElse(Long.MAX_VALUE)).as("the handle's fencing token never goes back")
                .isGreaterThan(laterToken);
    }

    /**
     * As above, with guarded actions: the stale grant's action runs while another handle's action runs.
     */
    @Test
    void aStaleGrantsActionDoesNotRunBesideAnotherHolder() throws Exception {
        String key = "stale-action-after-release-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.SINGLE_ENTRANT);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch staleStarted = new CountDownLatch(1);
        CompletableFuture<Void> endStale = new CompletableFuture<>();
        store.holdNextReply();
        CompletableFuture<String> stale = lock.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(10),
                Uni.createFrom().item(() -> {
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    staleStarted.countDown();
                    return "stale";
                }).call(() -> Uni.createFrom().completionStage(endStale))
                        .eventually(running::decrementAndGet))
                .subscribeAsCompletionStage();
        assertThat(store.heldReplyGranted()).isTrue();

        takeOverAndFree(key);
        assertThat(await(lock.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(10),
                Uni.createFrom().item("later")))).isEqualTo("later");
        store.deliverHeldReply();
        boolean staleRan = staleStarted.await(2, TimeUnit.SECONDS);

        ReactiveDistributedLock other = locks.registry().obtain(key, LockType.SINGLE_ENTRANT);
        String otherResult = await(other.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(10),
                Uni.createFrom().item(() -> {
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    return "other";
                }).eventually(running::decrementAndGet))
                .onFailure().recoverWithItem(failure -> failure.getClass().getSimpleName()));
        endStale.complete(null);
        try {
            stale.get(5, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // the outcome of the stale action is not the point
        }
        assertThat(most.get()).as("actions under lock '%s' at once (stale action ran: %s, other: %s)", key, staleRan,
                otherResult).isEqualTo(1);
    }

    /**
     * A blocking section whose hold another acquisition of the same handle replaced while it ran (its lease ran out,
     * or it was taken over and found lost by renewal) returns normally: its release finds the handle no longer has
     * the hold and answers false, which the blocking view ignores. With any other handle as the next holder it throws
     * {@link LockExpiredException}, as documented ("if the action returned but the lease ran out before the
     * release"). The reactive execution fails with it in both cases.
     */
    @ParameterizedTest
    @ValueSource(booleans = { true, false })
    void aBlockingSectionWhoseLeaseRanOutThrowsWhoeverAcquiredNext(boolean nextIsSameHandle) throws Exception {
        String key = "blocking-ran-out-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.SINGLE_ENTRANT);
        DistributedLock blocking = lock.toBlocking();
        CountDownLatch inSection = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        Future<String> section = threads.submit(() -> blocking.acquireAndExecute(Duration.ZERO, Duration.ofMillis(300),
                () -> {
                    inSection.countDown();
                    assertThat(leave.await(10, TimeUnit.SECONDS)).isTrue();
                    return "done";
                }));
        assertThat(inSection.await(5, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(600);
        ReactiveDistributedLock next = nextIsSameHandle ? lock
                : locks.registry().obtain(key, LockType.SINGLE_ENTRANT);
        assertThat(await(next.acquireOnce())).as("the section's lease ran out in the store").isTrue();
        leave.countDown();

        assertThatThrownBy(() -> section.get(5, TimeUnit.SECONDS))
                .as("the section's lease ran out before its release, and another acquisition%s held the lock",
                        nextIsSameHandle ? " of the same handle" : "")
                .hasCauseInstanceOf(LockExpiredException.class);
        assertThat(await(next.release())).isTrue();
    }

    /**
     * Every guarded execution now adds a callback to its hold's end signal, renewed or not, and nothing removes it
     * before the hold ends: a reentrant hold kept long (acquired forever, not renewed) piles up one per re-entry that
     * ran under it, with the execution's emitter and subscription. Before the fix a hold not renewed had none.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void reEntriesThatEndedLeaveNothingOnTheHold(boolean many) {
        String key = "reentry-callbacks-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.REENTRANT);
        assertThat(await(lock.acquireForever())).isTrue();
        Hold held = ((LockHandle) lock).currentHold();
        for (int i = 0; i < 500; i++) {
            if (many) {
                await(lock.acquireAndExecuteMany(Duration.ZERO, Duration.ofSeconds(10), Multi.createFrom().items(1, 2))
                        .collect().asList());
            } else {
                await(lock.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(10), Uni.createFrom().item(i)));
            }
        }
        assertThat(((LockHandle) lock).currentHold()).isSameAs(held);
        assertThat(held.lostListeners()).as("listeners left on the hold by 500 guarded re-entries that ended")
                .isZero();
        assertThat(await(lock.release())).isTrue();
    }

    private void takeOverAndFree(String key) {
        ReactiveDistributedLock overriding = locks.registry().obtain(key, LockType.OVERRIDING);
        assertThat(await(overriding.acquireOnce())).isTrue();
        assertThat(await(overriding.release())).isTrue();
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
