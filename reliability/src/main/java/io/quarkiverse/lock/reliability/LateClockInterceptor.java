package io.quarkiverse.lock.reliability;

import java.time.Duration;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Delays {@link LateClock} calls by {@code reliability.clock-offset}; runs before {@code @Locked}'s interceptor.
 */
@LateClock
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE)
public class LateClockInterceptor {

    @ConfigProperty(name = "reliability.clock-offset", defaultValue = "0s")
    Duration offset;

    /**
     * @param context the call
     * @return what the call returned, after the delay
     * @throws Exception what the call threw
     */
    @AroundInvoke
    Object late(InvocationContext context) throws Exception {
        Thread.sleep(offset.toMillis());
        return context.proceed();
    }
}
