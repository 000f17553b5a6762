package io.quarkiverse.lock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * The shapes the benchmarks need, for libraries whose locks are blocking (Spring Integration's registries,
 * ShedLock): a pair on a thread pool, and a contender for a {@link Lock}.
 */
final class BlockingLocks {

    private BlockingLocks() {
    }

    /**
     * @param lock obtains the lock, on a pool thread
     * @param pool the threads that stand for the callers
     * @return one {@code tryLock()} and, if it succeeded, {@code unlock()}, on the pool
     */
    static Uni<Void> tryLockAndUnlock(Supplier<Lock> lock, Executor pool) {
        return onPool(pool, () -> {
            Lock obtained = lock.get();
            if (obtained.tryLock()) {
                obtained.unlock();
            }
        });
    }

    /**
     * @param pool the threads that stand for the callers
     * @param pair one blocking acquire-and-release pair
     * @return the pair, run on the pool
     */
    static Uni<Void> onPool(Executor pool, Runnable pair) {
        return Uni.createFrom().<Void> item(() -> {
            pair.run();
            return null;
        }).runSubscriptionOn(pool);
    }

    /**
     * @param lock the contender's lock
     * @return a contender that waits with {@code tryLock} up to {@link LockLibrary#WAIT_MILLIS}
     */
    static Contender contender(Lock lock) {
        return new Contender() {
            @Override
            public void acquire() throws InterruptedException {
                if (!lock.tryLock(LockLibrary.WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("gave up after " + LockLibrary.WAIT_MILLIS + " ms");
                }
            }

            @Override
            public void release() {
                lock.unlock();
            }
        };
    }

    /**
     * @param lock obtains the key's lock from the library's one registry
     * @return waiters that are threads of their own, each waiting with {@code tryLock}; the holder is the caller's
     *         thread
     */
    static Waiters waiters(Supplier<Lock> lock) {
        Lock holder = lock.get();
        ExecutorService threads = Executors.newCachedThreadPool();
        return new Waiters() {
            @Override
            public void hold() {
                holder.lock();
            }

            @Override
            public CompletableFuture<Void> queue(int count) {
                List<CompletableFuture<?>> all = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    all.add(CompletableFuture.runAsync(() -> {
                        Lock waiting = lock.get();
                        try {
                            if (waiting.tryLock(LockLibrary.WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                                waiting.unlock();
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }, threads));
                }
                return CompletableFuture.allOf(all.toArray(new CompletableFuture[0]));
            }

            @Override
            public void release() {
                holder.unlock();
            }

            @Override
            public void close() {
                threads.shutdownNow();
            }
        };
    }
}
