package io.quarkiverse.lock.testsupport.proxy;

/**
 * Decides what happens to one reply (or server push) of a {@link FaultProxy}.
 * <p>
 * A proxy asks its rules in the order they were added, for every reply and push, on the thread that reads the
 * connection's server side: a rule must answer quickly, be safe to call from several threads at once, and should not
 * throw (a rule that throws is logged and counts as {@link Fault#pass()}).
 */
@FunctionalInterface
public interface FaultRule {

    /**
     * @param exchange the reply and the request it answers
     * @return what to do with the reply: {@link Fault#pass()} to leave the decision to the next rule (and deliver it
     *         when no rule injects a fault), any other fault to inject that fault
     */
    Fault decide(Exchange exchange);
}
