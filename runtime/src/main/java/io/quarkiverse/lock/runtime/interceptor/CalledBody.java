package io.quarkiverse.lock.runtime.interceptor;

import java.util.function.Supplier;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.AbstractMulti;
import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.MultiSubscriber;
import io.smallrye.mutiny.subscription.UniSubscriber;

/**
 * The body of a {@code @Locked} method, called when subscribed, in the context current then. Unlike a
 * {@code Uni.createFrom().deferred(...)}, it is not made through Mutiny's infrastructure, so SmallRye Context
 * Propagation does not bring back, at its subscription, the context it was made in (before its lock was even asked
 * for): the method is called inside its guarded section, whose span is current by then, as Quarkus's
 * {@code @WithSpan} calls a method inside its span, and the spans the method's pipeline makes are children of the
 * section's.
 */
final class CalledBody {

    private CalledBody() {
    }

    /** @return a {@code Uni} that calls {@code body} and subscribes to what it returns, at each subscription */
    static <T> Uni<T> uni(Supplier<Uni<T>> body) {
        return new AbstractUni<T>() {
            @Override
            public void subscribe(UniSubscriber<? super T> downstream) {
                body.get().subscribe().withSubscriber(downstream);
            }
        };
    }

    /** @return a {@code Multi} that calls {@code body} and subscribes to what it returns, at each subscription */
    static <T> Multi<T> multi(Supplier<Multi<T>> body) {
        return new AbstractMulti<T>() {
            @Override
            public void subscribe(MultiSubscriber<? super T> downstream) {
                body.get().subscribe().withSubscriber(downstream);
            }
        };
    }
}
