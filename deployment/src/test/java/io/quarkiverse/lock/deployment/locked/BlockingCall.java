package io.quarkiverse.lock.deployment.locked;

import java.util.concurrent.Callable;

import io.smallrye.mutiny.Uni;

/**
 * Runs a blocking call on a thread of its own, seen as a {@link Uni}; cancelling the Uni interrupts the thread (as
 * does any termination, when the thread is already done).
 */
final class BlockingCall {

    private BlockingCall() {
    }

    static <T> Uni<T> of(Callable<T> call) {
        return Uni.createFrom().emitter(emitter -> {
            Thread thread = new Thread(() -> {
                try {
                    emitter.complete(call.call());
                } catch (Exception e) {
                    emitter.fail(e);
                }
            }, "blocking-call");
            emitter.onTermination(thread::interrupt);
            thread.start();
        });
    }
}
