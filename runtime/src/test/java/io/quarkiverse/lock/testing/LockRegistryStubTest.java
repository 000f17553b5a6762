package io.quarkiverse.lock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Uni;

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
}
