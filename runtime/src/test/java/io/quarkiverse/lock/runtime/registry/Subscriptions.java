package io.quarkiverse.lock.runtime.registry;

import java.util.function.Consumer;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;

/** Subscribes to a {@link Uni} so that a test gets hold of its subscription (to cancel it when it chooses). */
public final class Subscriptions {

    private Subscriptions() {
    }

    /**
     * Subscribes, ignoring the item and the failure.
     *
     * @param uni what to subscribe to
     * @param onSubscribe given the subscription, in {@code onSubscribe}
     */
    public static <T> void subscribe(Uni<T> uni, Consumer<UniSubscription> onSubscribe) {
        uni.subscribe().withSubscriber(new UniSubscriber<T>() {
            @Override
            public void onSubscribe(UniSubscription subscription) {
                onSubscribe.accept(subscription);
            }

            @Override
            public void onItem(T item) {
                // the test looks at the store, not at the outcome
            }

            @Override
            public void onFailure(Throwable failure) {
                // likewise
            }
        });
    }
}
