package io.quarkiverse.lock.runtime.registry;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
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

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory().decorating((vertx, inMemory) -> store.on(inMemory));

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
        assertThat(await(claim.release())).isFalse();
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

    /** Holds the reply to the next acquisition (which the store has decided) until the test delivers it. */
    private static final class HeldReplies {

        private final CompletableFuture<AcquireResult> decided = new CompletableFuture<>();
        private final CompletableFuture<Void> delivered = new CompletableFuture<>();
        private volatile boolean holdNext;

        LockStore on(LockStore delegate) {
            return new ForwardingLockStore(delegate) {

                @Override
                public boolean answersAtOnce() {
                    return false;
                }

                @Override
                public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
                    if (!holdNext) {
                        return super.tryAcquire(key, owner, leaseMillis, waiting);
                    }
                    holdNext = false;
                    return super.tryAcquire(key, owner, leaseMillis, waiting)
                            .invoke(decided::complete)
                            .call(() -> Uni.createFrom().completionStage(delivered));
                }
            };
        }

        void holdNextReply() {
            holdNext = true;
        }

        boolean heldReplyGranted() throws Exception {
            return decided.get(5, TimeUnit.SECONDS).acquired();
        }

        void deliverHeldReply() throws Exception {
            heldReplyGranted();
            delivered.complete(null);
        }
    }
}
