package io.quarkiverse.lock.runtime.leadership;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.quarkiverse.lock.leadership.LeadershipEnded;
import io.quarkiverse.lock.leadership.Leading;
import io.quarkiverse.lock.leadership.NotLeaderException;
import io.quarkiverse.lock.runtime.interceptor.ReturnType;
import io.quarkus.arc.ArcInvocationContext;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Runs a {@link Leading} method only on the leader of its group, and cancels it when the term ends: a {@code Uni} or
 * {@code Multi} is cancelled, a blocking method's thread interrupted. Runs outside {@code @Locked} and the platform's
 * interceptors, so a non-leader takes no lock and opens no transaction.
 */
@Leading
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 40)
public class LeadingInterceptor {

    private final ConcurrentHashMap<Method, LeadingMethod> methods = new ConcurrentHashMap<>();

    @Inject
    DefaultLeadership leadership;

    /**
     * Runs the intercepted call if this instance leads the method's group.
     *
     * @param context the call
     * @return the method's result, guarded by the term
     * @throws Exception the method's own exception, unchanged, unless the term ended while it ran
     */
    @AroundInvoke
    Object lead(InvocationContext context) throws Exception {
        LeadingMethod method = methods.computeIfAbsent(context.getMethod(),
                m -> new LeadingMethod(m, ArcInvocationContext.findIterceptorBinding(context, Leading.class)));
        GroupMember group = leadership.member(method.group);
        switch (method.returnType) {
            case UNI:
                return WhileLeading.uni(group, method.name,
                        Uni.createFrom().deferred(() -> proceed(context, Uni.class)), method.skips);
            case MULTI:
                return WhileLeading.multi(group, method.name,
                        Multi.createFrom().deferred(() -> proceed(context, Multi.class)), method.skips);
            case COMPLETION_STAGE:
                return WhileLeading.uni(group, method.name, Uni.createFrom().deferred(
                        () -> Uni.createFrom().completionStage(LeadingInterceptor.<CompletionStage<Object>> proceed(context,
                                CompletionStage.class))),
                        method.skips)
                        .subscribeAsCompletionStage();
            default:
                return leadBlocking(context, method, group);
        }
    }

    private Object leadBlocking(InvocationContext context, LeadingMethod method, GroupMember group) throws Exception {
        Term term = group.believedTerm();
        if (term == null) {
            if (method.skips) {
                return null;
            }
            throw new NotLeaderException(group.name(), method.name);
        }
        BlockingCall call = new BlockingCall(Thread.currentThread());
        Runnable unwatch = term.whenEnded(call::interrupt);
        Object result;
        try {
            result = context.proceed();
        } catch (Exception e) {
            LeadershipEnded.Cause cause = call.finish(unwatch);
            if (cause == null) {
                throw e;
            }
            NotLeaderException ended = new NotLeaderException(group.name(), method.name, term.token(), cause);
            ended.addSuppressed(e);
            throw ended;
        }
        LeadershipEnded.Cause cause = call.finish(unwatch);
        if (cause != null) {
            throw new NotLeaderException(group.name(), method.name, term.token(), cause);
        }
        return result;
    }

    /** Calls the method, turning what it throws into its reactive type's failure. */
    @SuppressWarnings("unchecked")
    private static <T> T proceed(InvocationContext context, Class<?> type) {
        try {
            return (T) context.proceed();
        } catch (Exception e) {
            if (type == Multi.class) {
                return (T) Multi.createFrom().failure(e);
            }
            if (type == Uni.class) {
                return (T) Uni.createFrom().failure(e);
            }
            return (T) CompletableFuture.failedStage(e);
        }
    }

    /** A {@code @Leading} method, as its binding says. */
    private static final class LeadingMethod {

        final String name;
        final String group;
        final boolean skips;
        final ReturnType returnType;

        LeadingMethod(Method method, Leading leading) {
            this.name = "@Leading method " + method.getDeclaringClass().getName() + "#" + method.getName();
            this.group = leading.value();
            this.skips = leading.whenNotLeader() == Leading.WhenNotLeader.SKIP;
            this.returnType = ReturnType.of(method.getReturnType());
        }
    }

    /**
     * A blocking call's thread, interrupted when its term ends, but never after the call finished: the interrupt is
     * then cleared, so the thread (a pool's) does not carry it into its next task.
     */
    private static final class BlockingCall {

        private final Thread thread;
        private LeadershipEnded.Cause interruptedBy;
        private boolean finished;

        BlockingCall(Thread thread) {
            this.thread = thread;
        }

        synchronized void interrupt(LeadershipEnded.Cause cause) {
            if (!finished) {
                interruptedBy = cause;
                thread.interrupt();
            }
        }

        /** @return why the term ended while the call ran, or {@code null} if it did not */
        LeadershipEnded.Cause finish(Runnable unwatch) {
            unwatch.run();
            synchronized (this) {
                finished = true;
                if (interruptedBy != null) {
                    Thread.interrupted();
                }
                return interruptedBy;
            }
        }
    }
}
