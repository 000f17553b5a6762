package io.quarkiverse.lock.runtime.tracing;

import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.LockedSection;
import io.quarkiverse.lock.runtime.config.LockRuntimeConfig;
import io.quarkiverse.lock.runtime.observe.LockTracer;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.AbstractMulti;
import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.MultiSubscriber;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.core.Vertx;

/**
 * Lock spans in OpenTelemetry, registered by the build only when {@code quarkus-opentelemetry} is present and
 * {@code quarkus.lock.tracing.enabled} is true (no other class of the extension refers to this one, so without it no
 * OpenTelemetry class is loaded).
 * <ul>
 * <li>{@code lock acquire <name>}: one acquisition, a child of its section's span or else of the caller's current
 * span; attributes {@code lock.name}, {@code lock.store}, {@code lock.type}, {@code lock.wait.requested_ms}, and at its
 * end {@code lock.outcome} ({@code acquired}, {@code not_acquired}, {@code failed}, {@code cancelled}),
 * {@code lock.waited_ms}, {@code lock.fencing_token} when acquired, {@code lock.place_in_line} when it queued in this
 * JVM;</li>
 * <li>{@code lock section <name>}: one guarded section, a child of the caller's current span and the parent of the
 * acquisition's span and of the action's spans, ended once the release is done; {@code lock.outcome}
 * ({@code completed}, {@code not_acquired}, {@code failed}, {@code cancelled}).</li>
 * </ul>
 * {@code <name>} is the handle's metrics name (the {@code @Locked} key template), never the key: keys can hold user
 * data. The key is added as {@code lock.key} only with {@code quarkus.lock.tracing.include-key=true}.
 * <p>
 * The section's work (the action and the release) is made and subscribed with the section's span current: SmallRye
 * Context Propagation runs each Mutiny operator in the context it was made in, so work made before the section would
 * run in the caller's span. On a Vert.x duplicated context, where Quarkus keeps the OpenTelemetry context
 * ({@code QuarkusContextStorage}), the span stays current until the work ends, as Quarkus's {@code @WithSpan} does for
 * a {@code Uni}; elsewhere only while the work is subscribed, since a thread-local scope must close on its own thread.
 */
@Singleton
public class OpenTelemetryLockTracer implements LockTracer {

    /** The instrumentation scope of the spans. */
    public static final String INSTRUMENTATION_NAME = "io.quarkiverse.lock";

    static final AttributeKey<String> NAME = AttributeKey.stringKey("lock.name");
    static final AttributeKey<String> KEY = AttributeKey.stringKey("lock.key");
    static final AttributeKey<String> STORE = AttributeKey.stringKey("lock.store");
    static final AttributeKey<String> TYPE = AttributeKey.stringKey("lock.type");
    static final AttributeKey<Long> WAIT_REQUESTED = AttributeKey.longKey("lock.wait.requested_ms");
    static final AttributeKey<Long> WAITED = AttributeKey.longKey("lock.waited_ms");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("lock.outcome");
    static final AttributeKey<Long> FENCING_TOKEN = AttributeKey.longKey("lock.fencing_token");
    static final AttributeKey<Long> PLACE_IN_LINE = AttributeKey.longKey("lock.place_in_line");

    private static final String[] TYPE_NAMES = typeNames();

    private final Tracer tracer;
    private final boolean includeKey;

    /**
     * @param openTelemetry the application's OpenTelemetry
     * @param config the runtime configuration, for {@code quarkus.lock.tracing.include-key}
     */
    @Inject
    public OpenTelemetryLockTracer(OpenTelemetry openTelemetry, LockRuntimeConfig config) {
        this(openTelemetry.getTracer(INSTRUMENTATION_NAME), config.tracingIncludeKey());
    }

    /**
     * @param tracer makes the spans
     * @param includeKey whether spans carry the lock key as {@code lock.key}
     */
    public OpenTelemetryLockTracer(Tracer tracer, boolean includeKey) {
        this.tracer = tracer;
        this.includeKey = includeKey;
    }

    @Override
    public AcquireSpan startAcquire(String name, String key, String store, LockType type, long waitNanos,
            SectionSpan section) {
        Context parent = section instanceof Section started ? started.context : Context.current();
        Span span = builder("lock acquire " + name, parent, name, key, store, type)
                .setAttribute(WAIT_REQUESTED, waitNanos / 1_000_000)
                .startSpan();
        return new Acquire(span);
    }

    @Override
    public SectionSpan startSection(String name, String key, String store, LockType type) {
        Context parent = Context.current();
        Span span = builder("lock section " + name, parent, name, key, store, type).startSpan();
        return new Section(span, parent.with(span));
    }

    private SpanBuilder builder(String spanName, Context parent, String name, String key, String store,
            LockType type) {
        SpanBuilder builder = tracer.spanBuilder(spanName)
                .setParent(parent)
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(NAME, name)
                .setAttribute(STORE, store)
                .setAttribute(TYPE, TYPE_NAMES[type.ordinal()]);
        if (includeKey) {
            builder.setAttribute(KEY, key);
        }
        return builder;
    }

    private static String[] typeNames() {
        LockType[] types = LockType.values();
        String[] names = new String[types.length];
        for (LockType type : types) {
            names[type.ordinal()] = type.name().toLowerCase(Locale.ROOT);
        }
        return names;
    }

    /** One acquisition's span; its caller ends it exactly once. */
    private static final class Acquire implements AcquireSpan {

        private final Span span;

        Acquire(Span span) {
            this.span = span;
        }

        @Override
        public void queued(int placeInLine) {
            span.setAttribute(PLACE_IN_LINE, placeInLine);
        }

        @Override
        public void acquired(long token, long waitedNanos) {
            span.setAttribute(FENCING_TOKEN, token);
            end("acquired", waitedNanos);
        }

        @Override
        public void notAcquired(long waitedNanos) {
            end("not_acquired", waitedNanos);
        }

        @Override
        public void failed(Throwable failure, long waitedNanos) {
            span.recordException(failure);
            span.setStatus(StatusCode.ERROR);
            end("failed", waitedNanos);
        }

        @Override
        public void cancelled(long waitedNanos) {
            span.recordException(new CancellationException("the acquisition was cancelled"));
            end("cancelled", waitedNanos);
        }

        private void end(String outcome, long waitedNanos) {
            span.setAttribute(OUTCOME, outcome);
            span.setAttribute(WAITED, waitedNanos / 1_000_000);
            span.end();
        }
    }

    /** One guarded section's span, ended once whichever of its endings comes first. */
    private static final class Section extends AtomicBoolean implements SectionSpan {

        private final Span span;
        private final Context context;

        Section(Span span, Context context) {
            this.span = span;
            this.context = context;
        }

        @Override
        public <T> Uni<T> current(Supplier<Uni<T>> work) {
            return new CurrentUni<>(work, this);
        }

        @Override
        public <T> Multi<T> currentMany(Supplier<Multi<T>> work) {
            return new CurrentMulti<>(work, this);
        }

        @Override
        public <T, E extends Exception> T run(LockedSection<T, E> action) throws E {
            try (Scope ignored = context.makeCurrent()) {
                return action.run();
            }
        }

        @Override
        public void ended(Throwable failure) {
            if (!compareAndSet(false, true)) {
                return;
            }
            if (failure == null) {
                span.setAttribute(OUTCOME, "completed");
            } else if (failure instanceof CannotAcquireLockException) {
                span.setAttribute(OUTCOME, "not_acquired");
            } else {
                span.setAttribute(OUTCOME, "failed");
                span.recordException(failure);
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        }

        @Override
        public void notAcquired() {
            if (compareAndSet(false, true)) {
                span.setAttribute(OUTCOME, "not_acquired");
                span.end();
            }
        }

        @Override
        public void cancelled() {
            if (!compareAndSet(false, true)) {
                return;
            }
            span.setAttribute(OUTCOME, "cancelled");
            span.recordException(new CancellationException("the guarded section was cancelled"));
            span.end();
        }
    }

    /** @return {@code true} if the calling thread runs on a Vert.x duplicated context, where a scope may outlive it */
    static boolean onDuplicatedContext() {
        io.vertx.core.Context current = Vertx.currentContext();
        return current != null && VertxContext.isDuplicatedContext(current);
    }

    /**
     * A scope closed once, by whichever of the work's endings comes first; on a duplicated context only, since a
     * thread-local scope is closed by the thread that opened it, once the work is subscribed.
     */
    private static final class OnceScope extends AtomicBoolean {

        private final Scope scope;

        OnceScope(Scope scope) {
            this.scope = scope;
        }

        void close() {
            if (compareAndSet(false, true)) {
                scope.close();
            }
        }
    }

    /**
     * Makes the work with the section's span current and subscribes it through {@code subscribeEnding}, which closes
     * the scope when the work ends: on a duplicated context the scope stays open until then, elsewhere it closes once
     * the work is subscribed, on the thread that opened it.
     *
     * @param failed the work that fails with what making it threw
     */
    private static <W> void subscribeInSection(Section section, Supplier<W> work, Function<RuntimeException, W> failed,
            BiConsumer<W, OnceScope> subscribeEnding) {
        boolean untilEnd = onDuplicatedContext();
        Scope current = section.context.makeCurrent();
        OnceScope scope = new OnceScope(untilEnd ? current : Scope.noop());
        W made;
        try {
            made = work.get();
        } catch (RuntimeException failure) {
            scope.close();
            made = failed.apply(failure);
        }
        try {
            subscribeEnding.accept(made, scope);
        } finally {
            if (!untilEnd) {
                current.close();
            }
        }
    }

    private static final class CurrentUni<T> extends AbstractUni<T> {

        private final Supplier<Uni<T>> work;
        private final Section section;

        CurrentUni(Supplier<Uni<T>> work, Section section) {
            this.work = work;
            this.section = section;
        }

        @Override
        public void subscribe(UniSubscriber<? super T> downstream) {
            subscribeInSection(section, work, failure -> Uni.createFrom().failure(failure),
                    (made, scope) -> subscribeEnding(made, downstream, scope));
        }

        private void subscribeEnding(Uni<T> made, UniSubscriber<? super T> downstream, OnceScope scope) {
            made.subscribe().withSubscriber(new UniSubscriber<T>() {
                @Override
                public void onSubscribe(UniSubscription subscription) {
                    downstream.onSubscribe(() -> {
                        scope.close();
                        subscription.cancel();
                    });
                }

                @Override
                public void onItem(T item) {
                    scope.close();
                    section.ended(null);
                    downstream.onItem(item);
                }

                @Override
                public void onFailure(Throwable failure) {
                    scope.close();
                    section.ended(failure);
                    downstream.onFailure(failure);
                }
            });
        }
    }

    private static final class CurrentMulti<T> extends AbstractMulti<T> {

        private final Supplier<Multi<T>> work;
        private final Section section;

        CurrentMulti(Supplier<Multi<T>> work, Section section) {
            this.work = work;
            this.section = section;
        }

        @Override
        public void subscribe(MultiSubscriber<? super T> downstream) {
            subscribeInSection(section, work, failure -> Multi.createFrom().failure(failure),
                    (made, scope) -> subscribeEnding(made, downstream, scope));
        }

        private void subscribeEnding(Multi<T> made, MultiSubscriber<? super T> downstream, OnceScope scope) {
            made.subscribe().withSubscriber(new MultiSubscriber<T>() {
                @Override
                public void onSubscribe(Flow.Subscription subscription) {
                    downstream.onSubscribe(new Flow.Subscription() {
                        @Override
                        public void request(long n) {
                            subscription.request(n);
                        }

                        @Override
                        public void cancel() {
                            scope.close();
                            subscription.cancel();
                        }
                    });
                }

                @Override
                public void onItem(T item) {
                    downstream.onItem(item);
                }

                @Override
                public void onFailure(Throwable failure) {
                    scope.close();
                    section.ended(failure);
                    downstream.onFailure(failure);
                }

                @Override
                public void onCompletion() {
                    scope.close();
                    section.ended(null);
                    downstream.onCompletion();
                }
            });
        }
    }
}
