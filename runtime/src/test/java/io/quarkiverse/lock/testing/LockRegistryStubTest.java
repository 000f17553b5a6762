package io.quarkiverse.lock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicInteger;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * The stub registry used the way a user's unit test would: around a small service that runs a job under a lock.
 */
class LockRegistryStubTest {

    /** A user's service: runs the nightly report on one instance, skips it when another one runs it. */
    static final class NightlyReport {

        private final LockRegistry locks;
        private final AtomicInteger runs = new AtomicInteger();

        NightlyReport(LockRegistry locks) {
            this.locks = locks;
        }

        Uni<String> run() {
            return locks.obtain("nightly-report")
                    .acquireAndExecute(Duration.ZERO, Uni.createFrom().item(() -> "report " + runs.incrementAndGet()))
                    .onFailure(CannotAcquireLockException.class).recoverWithItem("skipped");
        }
    }

    @Test
    void aFreeLockLetsTheJobRunAndIsReleased() {
        LockRegistryStub locks = LockRegistryStub.alwaysFree();

        assertThat(new NightlyReport(locks).run().await().indefinitely()).isEqualTo("report 1");

        assertThat(locks.wasAcquiredAndReleased()).isTrue();
        assertThat(locks.acquireCalls()).isEqualTo(1);
        assertThat(locks.releaseCalls()).isEqualTo(1);
    }

    @Test
    void aHeldLockSkipsTheJobAndNothingIsReleased() {
        LockRegistryStub locks = LockRegistryStub.alwaysHeld();

        assertThat(new NightlyReport(locks).run().await().indefinitely()).isEqualTo("skipped");

        assertThat(locks.wasAcquireRejected()).isTrue();
        assertThat(locks.wasReleaseInvoked()).isFalse();
        assertThat(locks.acquired()).isZero();
    }

    @Test
    void answersFollowTheGivenSequenceAndTheLastRepeats() {
        LockRegistryStub locks = LockRegistryStub.answering(false, true);
        NightlyReport report = new NightlyReport(locks);

        assertThat(report.run().await().indefinitely()).isEqualTo("skipped");
        assertThat(report.run().await().indefinitely()).isEqualTo("report 1");
        assertThat(report.run().await().indefinitely()).isEqualTo("report 2");

        assertThat(locks.rejected()).isEqualTo(1);
        assertThat(locks.acquired()).isEqualTo(2);
        assertThat(locks.released()).isEqualTo(2);
    }

    @Test
    void handlesBehaveLikeRealOnes() {
        LockRegistryStub locks = LockRegistryStub.alwaysFree();
        ReactiveDistributedLock lock = locks.obtain("k");

        assertThat(lock.acquireOnce().await().indefinitely()).isTrue();
        long first = lock.fencingToken().getAsLong();
        assertThat(lock.acquireOnce().await().indefinitely()).as("single-entrant").isFalse();
        assertThat(locks.obtain("k").release().await().indefinitely()).as("not the holder").isFalse();
        assertThat(lock.release().await().indefinitely()).isTrue();
        assertThat(lock.fencingToken()).isEmpty();

        DistributedLock blocking = locks.obtainBlocking("k");
        assertThat(blocking.acquireAndExecute(() -> "done")).isEqualTo("done");
        assertThat(blocking.acquireOnce()).isTrue();
        assertThat(blocking.fencingToken().getAsLong()).isGreaterThan(first);
        assertThat(blocking.release()).isTrue();
        assertThat(locks.wasAcquiredAndReleased()).isTrue();
    }

    @Test
    void aHeldLockFailsAcquireAndExecuteWithoutRunningTheAction() {
        LockRegistryStub locks = LockRegistryStub.alwaysHeld();
        AtomicInteger runs = new AtomicInteger();

        assertThatThrownBy(() -> locks.obtainBlocking("k").acquireAndExecute(runs::incrementAndGet))
                .isInstanceOf(CannotAcquireLockException.class).hasMessageContaining("'k'");
        assertThat(runs.get()).isZero();
        assertThatThrownBy(() -> LockRegistryStub.answering()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("answers");
    }

    @Test
    void aReentrantStubHandleEntersAgainWithoutUsingAnAnswerAndNeedsAsManyReleases() {
        LockRegistryStub locks = LockRegistryStub.answering(true, false);
        ReactiveDistributedLock lock = locks.obtain("k", LockType.REENTRANT);

        assertThat(lock.acquireOnce().await().indefinitely()).isTrue();
        assertThat(lock.acquireOnce().await().indefinitely()).isTrue();
        assertThat(locks.acquireCalls()).isEqualTo(2);
        assertThat(lock.release().await().indefinitely()).isTrue();
        assertThat(lock.fencingToken()).as("one entry is left").isPresent();
        assertThat(lock.release().await().indefinitely()).isTrue();
        assertThat(lock.release().await().indefinitely()).isFalse();
        assertThat(locks.wasAcquiredAndReleased()).isTrue();
        assertThat(locks.obtain("k", LockType.REENTRANT).acquireOnce().await().indefinitely())
                .as("the second scripted answer").isFalse();
        assertThatThrownBy(() -> locks.obtain("k", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("type");
    }

    @Test
    void aStubHandleExtendsOnlyWhileItHoldsTheLock() {
        LockRegistryStub locks = LockRegistryStub.alwaysFree();
        ReactiveDistributedLock lock = locks.obtain("k");

        assertThat(lock.extend(Duration.ofMinutes(1)).await().indefinitely()).as("before acquiring").isFalse();
        assertThat(lock.acquireOnce().await().indefinitely()).isTrue();
        assertThat(lock.extend(Duration.ofMinutes(1)).await().indefinitely()).isTrue();
        assertThat(lock.toBlocking().extend(Duration.ofSeconds(5))).isTrue();
        assertThat(lock.release().await().indefinitely()).isTrue();
        assertThat(lock.extend(Duration.ofMinutes(1)).await().indefinitely()).as("after its release").isFalse();
    }

    @Test
    void theStubRefusesWhatTheRealRegistryRefusesWithTheSameMessage() {
        LockRegistryStub locks = LockRegistryStub.alwaysFree();
        String longest = "k".repeat(LockRegistry.MAX_KEY_LENGTH);
        String tooLong = longest + "k";
        Vertx vertx = Vertx.vertx();
        try {
            LockRegistry real = new DefaultLockRegistry(new InMemoryLockStore(InstantSource.system()),
                    new LockSettings(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(1), "lock:",
                            false, Duration.ofSeconds(5)),
                    new BackoffWaitStrategy(vertx), new LocalLockStates(), vertx);

            assertThat(locks.obtain(longest).getLockKey()).isEqualTo(longest);
            assertThat(real.obtain(longest).getLockKey()).isEqualTo(longest);
            assertRefusedAlike(() -> locks.obtain(tooLong), () -> real.obtain(tooLong), "at most 512 characters");
            assertRefusedAlike(() -> locks.obtainBlocking(tooLong), () -> real.obtainBlocking(tooLong),
                    "at most 512 characters");
            assertRefusedAlike(() -> locks.obtain(" "), () -> real.obtain(" "), "blank");
            assertRefusedAlike(() -> locks.obtain(null), () -> real.obtain(null), "null");

            ReactiveDistributedLock stub = locks.obtain("k");
            ReactiveDistributedLock lock = real.obtain("k");
            assertRefusedAlike(() -> stub.acquire(Duration.ofSeconds(-1)), () -> lock.acquire(Duration.ofSeconds(-1)),
                    "wait");
            assertRefusedAlike(() -> stub.acquire(Duration.ZERO, Duration.ZERO),
                    () -> lock.acquire(Duration.ZERO, Duration.ZERO), "lease");
            assertRefusedAlike(() -> stub.acquireAndExecute((Uni<String>) null),
                    () -> lock.acquireAndExecute((Uni<String>) null), "action");
            assertRefusedAlike(() -> stub.acquireAndExecuteMany(Duration.ZERO, Duration.ofMillis(-5), Multi.createFrom()
                    .item("x")), () -> lock.acquireAndExecuteMany(Duration.ZERO, Duration.ofMillis(-5),
                            Multi.createFrom()
                                    .item("x")),
                    "lease");
            assertRefusedAlike(() -> stub.toBlocking().acquireAndExecute(Duration.ofSeconds(-1), () -> "x"),
                    () -> lock.toBlocking().acquireAndExecute(Duration.ofSeconds(-1), () -> "x"), "wait");
            assertRefusedAlike(() -> stub.toBlocking().acquireAndExecute(null),
                    () -> lock.toBlocking().acquireAndExecute(null), "action");
            assertRefusedAlike(() -> stub.extend(Duration.ZERO), () -> lock.extend(Duration.ZERO), "lease");
            assertRefusedAlike(() -> stub.toBlocking().extend(null), () -> lock.toBlocking().extend(null), "lease");
            assertThat(locks.acquireCalls()).as("nothing refused reached the answers").isZero();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static void assertRefusedAlike(ThrowingCallable stub, ThrowingCallable real, String mentioning) {
        Throwable expected = org.assertj.core.api.Assertions.catchThrowable(real);
        assertThat(expected).as("the real registry refuses it").isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(mentioning);
        assertThatThrownBy(stub).isInstanceOf(IllegalArgumentException.class).hasMessage(expected.getMessage());
    }
}
