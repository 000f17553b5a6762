package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;

/**
 * A re-entry against the handle's last release: its renewal never lands after the release that shortened the lease to
 * what remains of the minimum hold (which would restore the full lease of a hold nobody tracks), and the entry it took
 * is given back once, never so that the lock outlives its minimum hold or stays held by nobody: not ahead of a renewal
 * still to be sent, not when the renewal cannot be sent, and not without the minimum hold when the acquisition is
 * cancelled as the entered hold arrives. Each handle holds its lock with a long lease (20 s) and a minimum hold of one
 * second, without renewal, so a lock left held shows within seconds.
 */
class ReentryGiveBackTest {

    private final RenewalFaults renewals = new RenewalFaults();

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory().decorating((vertx, inMemory) -> renewals.over(inMemory));

    @Test
    void aRenewalOnItsWayCannotRestoreTheLeaseTheLastReleaseShortened() throws Exception {
        String key = "reentry-renewal-" + UUID.randomUUID();
        ReactiveDistributedLock lock = heldWithMinimumHold(key);
        CompletableFuture<Boolean> reentry = new CompletableFuture<>();
        CountDownLatch send = upToItsRenewal(
                () -> lock.acquireOnce().subscribe().with(reentry::complete, reentry::completeExceptionally));

        assertThat(RegistryFixture.await(lock.release())).as("the first entry's release").isTrue();
        send.countDown();
        boolean reentered = reentry.get(5, TimeUnit.SECONDS);
        boolean lastReleased = RegistryFixture.await(lock.release());

        RegistryFixture.assertAcquirableSoon(locks.registry(), key);
        assertThat(reentered).as("the re-entry entered the hold the release did not end").isTrue();
        assertThat(lastReleased).as("the last entry's release").isTrue();
    }

    @Test
    void aReentryCancelledBeforeItsRenewalIsSentGivesItsEntryBackAfterTheRenewal() throws Exception {
        String key = "reentry-cancelled-before-renewal-" + UUID.randomUUID();
        ReactiveDistributedLock lock = heldWithMinimumHold(key);
        AtomicReference<UniSubscription> reentry = new AtomicReference<>();
        CountDownLatch send = upToItsRenewal(() -> Subscriptions.subscribe(lock.acquireOnce(), reentry::set));

        assertThat(RegistryFixture.await(lock.release())).as("the outer entry's release").isTrue();
        reentry.get().cancel();
        send.countDown();

        RegistryFixture.assertAcquirableSoon(locks.registry(), key);
    }

    @Test
    void aRenewalThatCannotBeSentFailsTheReentryAndGivesItsEntryBack() {
        String key = "reentry-renewal-not-sent-" + UUID.randomUUID();
        ReactiveDistributedLock lock = heldWithMinimumHold(key);
        renewals.failNext(new IllegalStateException("the client is closed"));

        assertThatThrownBy(() -> RegistryFixture.await(lock.acquireOnce())).isInstanceOf(LockException.class)
                .hasRootCauseMessage("the client is closed");
        assertThat(RegistryFixture.await(lock.release())).as("the outer entry's release").isTrue();

        RegistryFixture.assertAcquirableSoon(locks.registry(), key);
    }

    @Test
    void aReenteredHoldGivenBackByACancelledAcquisitionKeepsTheMinimumHold() {
        String key = "reentry-cancelled-as-delivered-" + UUID.randomUUID();
        LockHandle handle = (LockHandle) heldWithMinimumHold(key);
        Hold hold = handle.currentHold();
        assertThat(hold.enter()).as("a re-entry enters the hold").isTrue();
        assertThat(RegistryFixture.await(handle.release())).as("the outer entry's release").isTrue();
        Delivered acquisition = new Delivered();
        new ClaimedAcquisition(handle, acquisition).subscribe().with(ignored -> {
        }).cancel();

        acquisition.deliver(hold);

        assertThat(RegistryFixture.await(locks.registry().obtain(key).acquireOnce()))
                .as("the last entry, given back, keeps the lock for the minimum hold").isFalse();
        RegistryFixture.assertAcquirableSoon(locks.registry(), key);
    }

    /**
     * Runs the re-entry on a thread of its own, which stops just before its renewal is sent.
     *
     * @return counted down, lets the renewal go
     */
    private CountDownLatch upToItsRenewal(Runnable reentry) throws InterruptedException {
        CountDownLatch renewing = new CountDownLatch(1);
        CountDownLatch send = new CountDownLatch(1);
        renewals.blockNextUntil(renewing, send);
        new Thread(reentry, "reentering").start();
        assertThat(renewing.await(5, TimeUnit.SECONDS)).as("the re-entry is about to send its renewal").isTrue();
        return send;
    }

    private ReactiveDistributedLock heldWithMinimumHold(String key) {
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.REENTRANT).withLeaseRenewal(false)
                .withHoldAtLeast(Duration.ofSeconds(1));
        assertThat(RegistryFixture.await(lock.acquire(Duration.ZERO, Duration.ofSeconds(20)))).isTrue();
        return lock;
    }

    /** An acquisition whose hold arrives when the test says, whatever its subscriber did meanwhile. */
    private static final class Delivered extends AbstractUni<Hold> {

        private volatile UniSubscriber<? super Hold> subscriber;

        @Override
        public void subscribe(UniSubscriber<? super Hold> subscriber) {
            this.subscriber = subscriber;
            subscriber.onSubscribe(() -> {
            });
        }

        void deliver(Hold hold) {
            subscriber.onItem(hold);
        }
    }
}
