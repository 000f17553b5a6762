package io.quarkiverse.lock.reliability;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.interceptor.InterceptorBinding;

/**
 * Delays each call by {@code reliability.clock-offset} (default none) before any other interceptor, {@code @Locked}
 * included: a scheduled job so annotated fires as it would on an instance whose clock runs that much behind. The
 * simple scheduler fires at whole seconds of the JVM's clock, so processes on one machine fire together otherwise.
 */
@InterceptorBinding
@Retention(RUNTIME)
@Target({ METHOD, TYPE })
public @interface LateClock {
}
