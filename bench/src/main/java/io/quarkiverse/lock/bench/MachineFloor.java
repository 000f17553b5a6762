package io.quarkiverse.lock.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Not a distributed lock: a fair {@link ReentrantLock} in this JVM, passed around by the same handoff benchmark. A
 * handoff then costs one thread wake-up and nothing else (no network, no server, no event loop), so its latencies are
 * the floor this machine's scheduler sets for every library's handoff: where the floor's own p99 or longest wait is
 * above a goal, no lock measured on this machine can meet that goal.
 */
final class MachineFloor extends HandoffFloor {

    private final ReentrantLock lock = new ReentrantLock(true);

    MachineFloor() {
        super("In-JVM fair lock (this machine's floor)");
    }

    @Override
    public Contender contender(String key, int index) {
        return new Contender() {
            @Override
            public void acquire() throws InterruptedException {
                if (!lock.tryLock(WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("gave up after " + WAIT_MILLIS + " ms");
                }
            }

            @Override
            public void release() {
                lock.unlock();
            }
        };
    }
}
