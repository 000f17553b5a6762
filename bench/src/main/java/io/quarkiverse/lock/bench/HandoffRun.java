package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One run of a {@link Handoff}: each contender's loop of taking the lock, holding it, releasing it, and waiting for
 * another contender to take it, until the deadline; the grants and releases go into the run's timeline.
 */
final class HandoffRun {

    private final long deadline;
    private final Duration hold;
    private final HandoffTimeline timeline;
    private final AtomicLong giveUps = new AtomicLong();
    /** Why a contender stopped before the run ended: its release failed, or its hold was interrupted. */
    private volatile Exception failure;

    /**
     * @param deadline the {@link System#nanoTime()} after which no contender asks again
     * @param hold how long each contender holds the lock
     * @param timeline where the grants and releases go
     */
    HandoffRun(long deadline, Duration hold, HandoffTimeline timeline) {
        this.deadline = deadline;
        this.hold = hold;
        this.timeline = timeline;
    }

    /**
     * Passes the lock around with the other contenders until the deadline, or until the contender fails.
     *
     * @param contender the contender this thread stands for
     */
    void loop(Contender contender) {
        while (System.nanoTime() < deadline) {
            long asked = System.nanoTime();
            try {
                contender.acquire();
            } catch (Exception e) {
                giveUps.incrementAndGet();
                continue;
            }
            int mine = timeline.granted(asked, System.nanoTime());
            try {
                Thread.sleep(hold.toMillis(), (int) (hold.toNanosPart() % 1_000_000));
                timeline.released(mine);
                contender.release();
            } catch (Exception e) {
                failure = e;
                return;
            }
            timeline.awaitAnotherGrant(mine, deadline);
        }
    }

    /**
     * @return why a contender stopped before the run ended, or {@code null} if none did
     */
    Exception failure() {
        return failure;
    }

    /**
     * @param compilingMillis how long the JIT compilers ran during the run
     * @param collectingMillis how long the garbage collectors ran during the run
     * @return the run's figures, once its contenders have ended
     */
    Handoff.Result result(long compilingMillis, long collectingMillis) {
        return timeline.result(giveUps.get(), compilingMillis, collectingMillis);
    }
}
