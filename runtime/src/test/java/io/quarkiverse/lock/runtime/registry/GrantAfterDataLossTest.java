package io.quarkiverse.lock.runtime.registry;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * The stale-grant rule around a store that lost its data and restarted its tokens: a grant asked for after the
 * handle's latest grant stands, and a late reply asked for before it neither replaces it nor strands it.
 */
class GrantAfterDataLossTest {

    private final LosingStore store = new LosingStore();
    private final HeldReplies held = new HeldReplies();

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory()
            .decorating((vertx, inMemory) -> held.on(store.on(inMemory)));

    /**
     * (e) The {@code sentNanos} given to {@code onGranted} for an attempt's grant is
     * {@code ledger.leaseSinceNanos(sentNanos)}: the send time of the last <em>refused</em> attempt, not of the attempt
     * that was granted. A waiting acquisition refused once before the handle recorded another grant, whose next
     * attempt (sent after that recording) is granted by a store that lost its data, is judged stale: taken back, and
     * answered "not acquired" though its wait has seconds left and the store granted it the lock.
     */
    @Test
    void aWaitingAcquisitionGrantedAfterTheStoreLostItsDataIsAcquired() throws Exception {
        String key = "waiting-after-loss-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.SINGLE_ENTRANT);
        store.holdNextWaitingAttempt();
        CompletableFuture<Boolean> waiting = lock.acquire(Duration.ofSeconds(10), Duration.ofSeconds(10))
                .subscribeAsCompletionStage();
        assertThat(store.heldAttemptSent.get(5, TimeUnit.SECONDS)).isTrue();

        // Another acquisition of the handle is granted (token above 1000) while the waiting one's attempt is on its
        // way; that attempt then reaches the store and is refused, and the store loses its data right after.
        assertThat(await(lock.acquireOnce())).isTrue();
        long before = lock.fencingToken().orElseThrow();
        store.releaseHeldAttemptThenLoseData();

        boolean acquired = waiting.get(5, TimeUnit.SECONDS);
        OptionalLong after = lock.fencingToken();
        assertThat(acquired)
                .as("the store granted the waiting acquisition's next attempt, sent after the handle's grant %d was "
                        + "recorded (handle token now %s; refused attempts: %d; grants to waiting attempts: %d)", before,
                        after, store.refusedWaiting, store.grantedWaiting)
                .isTrue();
    }

    /**
     * (b) A pre-loss grant whose reply comes late, after the handle recorded a post-loss grant (tokens from 1 again),
     * has the higher token, so it is not stale by the rule although its request was sent before the later grant was
     * recorded. It replaces the later hold, which is only {@code lose()}-d locally: the store keeps the later grant
     * (acquired forever), no handle tracks it, and the lock can never be acquired again.
     */
    @Test
    void aLateGrantFromBeforeTheLossDoesNotOrphanTheGrantAfterIt() throws Exception {
        String key = "late-before-loss-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.SINGLE_ENTRANT);
        held.holdNextReply();
        CompletableFuture<Boolean> late = lock.acquireOnce().subscribeAsCompletionStage();
        assertThat(held.heldReplyGranted()).as("granted before the loss").isTrue();

        store.loseData();
        assertThat(await(lock.acquireForever())).as("granted after the loss").isTrue();
        long afterLoss = lock.fencingToken().orElseThrow();
        held.deliverHeldReply();
        Boolean lateAcquired = late.get(5, TimeUnit.SECONDS);
        OptionalLong handleToken = lock.fencingToken();
        Object released;
        try {
            released = await(lock.release());
        } catch (RuntimeException e) {
            released = e.getClass().getSimpleName();
        }

        boolean otherAcquired = await(locks.registry().obtain(key, LockType.SINGLE_ENTRANT).acquireOnce());
        assertThat(otherAcquired)
                .as("nothing of the handle stays held once it released (late grant acquired: %s, handle token %s "
                        + "after the post-loss grant %d, release: %s)", lateAcquired, handleToken, afterLoss, released)
                .isTrue();
    }

    /**
     * Tokens above 1000 until {@link #loseData}, then from the in-memory counter again; can hold a waiting attempt
     * before it reaches the store ({@link HeldReplies} holds a reply the store decided).
     */
    static final class LosingStore {

        private volatile long offset = 1000;
        private volatile InMemoryLockStore inMemory;
        private volatile String lastKey;
        private volatile boolean holdWaiting;
        final CompletableFuture<Boolean> heldAttemptSent = new CompletableFuture<>();
        private final CompletableFuture<Void> releaseAttempt = new CompletableFuture<>();
        private volatile boolean loseAfterHeldAttempt;
        volatile int refusedWaiting;
        volatile int grantedWaiting;

        LockStore on(LockStore delegate) {
            inMemory = (InMemoryLockStore) delegate;
            return new ForwardingLockStore(delegate) {

                @Override
                public boolean answersAtOnce() {
                    return false;
                }

                @Override
                public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
                    lastKey = key;
                    if (waiting && holdWaiting) {
                        holdWaiting = false;
                        heldAttemptSent.complete(true);
                        return Uni.createFrom().completionStage(releaseAttempt)
                                .chain(() -> super.tryAcquire(key, owner, leaseMillis, waiting))
                                .map(this::shifted)
                                .invoke(result -> count(result))
                                .invoke(() -> {
                                    if (loseAfterHeldAttempt) {
                                        loseData();
                                    }
                                });
                    }
                    return super.tryAcquire(key, owner, leaseMillis, waiting).map(this::shifted)
                            .invoke(result -> {
                                if (waiting) {
                                    count(result);
                                }
                            });
                }

                @Override
                public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
                    return super.takeOver(key, owner, leaseMillis).map(this::shifted);
                }

                private void count(AcquireResult result) {
                    if (result.acquired()) {
                        grantedWaiting++;
                    } else {
                        refusedWaiting++;
                    }
                }

                private AcquireResult shifted(AcquireResult result) {
                    return result.acquired() ? AcquireResult.acquired(result.token() + offset) : result;
                }
            };
        }

        void holdNextWaitingAttempt() {
            holdWaiting = true;
        }

        void releaseHeldAttemptThenLoseData() {
            loseAfterHeldAttempt = true;
            releaseAttempt.complete(null);
        }

        void loseData() {
            offset = 0;
            inMemory.remove(lastKey);
        }
    }
}
