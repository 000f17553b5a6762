package io.quarkiverse.lock.leadership;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;

/**
 * Runs the annotated CDI bean method only on the leader of a group, and cancels it when the term ends.
 *
 * <pre>
 * &#64;Leading("orders-consumer")
 * Multi&lt;Order&gt; consume() { ... } // cancelled when this instance stops leading
 * </pre>
 *
 * <ul>
 * <li>{@code Uni<T>} and {@code Multi<T>}: the leadership is checked at subscription (nothing happens before), and
 * the subscription is cancelled when the term ends, which the caller sees as a {@link NotLeaderException};</li>
 * <li>{@code CompletionStage<T>}: checked when the method is called; the stage fails with {@link NotLeaderException}
 * when the term ends first;</li>
 * <li>any other return type, {@code void} included, is a blocking method: its thread is interrupted when the term ends,
 * and the call then fails with {@link NotLeaderException}, even if the method returned.</li>
 * </ul>
 * The group must be declared in configuration ({@code quarkus.lock.leadership."<group>".enabled}); a method naming a
 * group that is not fails the build, as do private or static methods and {@link WhenNotLeader#SKIP} on a method
 * returning a primitive.
 */
@InterceptorBinding
@Retention(RUNTIME)
@Target({ METHOD, TYPE })
public @interface Leading {

    /**
     * @return the group's name, declared in configuration
     */
    @Nonbinding
    String value() default "";

    /**
     * @return what a call on an instance that does not lead does: {@link WhenNotLeader#FAIL} (the default) or
     *         {@link WhenNotLeader#SKIP}
     */
    @Nonbinding
    WhenNotLeader whenNotLeader() default WhenNotLeader.FAIL;

    /**
     * What a call does on an instance that does not lead the group when it is made.
     */
    enum WhenNotLeader {
        /** The call fails with {@link NotLeaderException} naming the group and the method. */
        FAIL,
        /**
         * The method is not run and the call completes empty: {@code null}, an empty {@code Multi}, or nothing for
         * {@code void}. For scheduled jobs that only the leader runs. Not allowed on methods returning a primitive.
         */
        SKIP
    }
}
