package io.quarkiverse.lock.runtime.leadership;

import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.EventContext;
import jakarta.enterprise.inject.spi.EventMetadata;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.enterprise.inject.spi.ObserverMethod;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.leadership.LeadershipChange;

/**
 * Fires a change as a CDI event: each synchronous observer is called on its own, so one that throws (an
 * {@link Error} included) is logged and the others are still called, in the order of their priorities; the
 * asynchronous observers are notified with {@code fireAsync}, whose failures are logged.
 */
public final class LeadershipEvents implements Consumer<LeadershipChange> {

    private static final Logger LOG = Logger.getLogger(LeadershipEvents.class);
    private static final Set<Annotation> QUALIFIERS = Set.of(Default.Literal.INSTANCE);

    private final BeanManager beans;

    private LeadershipEvents(BeanManager beans) {
        this.beans = beans;
    }

    /**
     * @param beans the application's bean manager
     * @return fires each change it is given as a CDI event
     */
    public static Consumer<LeadershipChange> firedBy(BeanManager beans) {
        return new LeadershipEvents(beans);
    }

    @Override
    public void accept(LeadershipChange change) {
        List<ObserverMethod<Object>> synchronous = new ArrayList<>();
        for (ObserverMethod<? super LeadershipChange> observer : beans.resolveObserverMethods(change)) {
            if (!observer.isAsync()) {
                synchronous.add(erased(observer));
            }
        }
        synchronous.sort(Comparator.comparingInt(ObserverMethod::getPriority));
        Context context = new Context(change);
        for (ObserverMethod<Object> observer : synchronous) {
            try {
                observer.notify(context);
            } catch (Throwable e) {
                LOG.errorf(e, "Observer %s failed on %s", observer, change);
            }
        }
        beans.getEvent().select(LeadershipChange.class).fireAsync(change).whenComplete((ignored, failure) -> {
            if (failure != null) {
                LOG.errorf(failure, "An asynchronous observer failed on %s", change);
            }
        });
    }

    /** An observer of a supertype of the change is one of {@code Object} for the change's context. */
    @SuppressWarnings("unchecked")
    private static ObserverMethod<Object> erased(ObserverMethod<? super LeadershipChange> observer) {
        return (ObserverMethod<Object>) observer;
    }

    /** The event as an observer method is notified of it. */
    private record Context(LeadershipChange change) implements EventContext<Object>, EventMetadata {

        @Override
        public Object getEvent() {
            return change;
        }

        @Override
        public EventMetadata getMetadata() {
            return this;
        }

        @Override
        public Set<Annotation> getQualifiers() {
            return QUALIFIERS;
        }

        @Override
        public InjectionPoint getInjectionPoint() {
            return null;
        }

        @Override
        public Type getType() {
            return change.getClass();
        }
    }
}
