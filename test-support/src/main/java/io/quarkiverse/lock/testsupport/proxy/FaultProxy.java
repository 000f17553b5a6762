package io.quarkiverse.lock.testsupport.proxy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * A TCP proxy that injects faults between a real client and a real server, for tests: it listens on a free port of
 * 127.0.0.1 and forwards every connection it accepts to the server, reading the traffic in the server's
 * {@link WireProtocol} so that it can pair each reply with its request and let {@link FaultRule}s drop, delay or
 * replace that reply, or cut the connection at it. It can also make the open connections silently dead
 * ({@link #swallow(boolean)}) or close them all ({@link #cutAll()}).
 * <p>
 * Requests reach the server as they come (unless the connection is swallowed or cut, or holds its requests): faults
 * act on replies, so the server has applied every request whose reply is dropped, delayed, replaced or cut. A request
 * can also be held in the network ({@link #holdRequests(Predicate)}) and delivered later ({@link #deliverHeld()}),
 * after its client gave up. Each connection uses three threads (requests, replies, delivery); the proxy one more to
 * accept connections. Close it when done.
 *
 * <pre>
 * try (FaultProxy proxy = FaultProxy.start("127.0.0.1", redis.port(), WireProtocol.REDIS)) {
 *     proxy.rule(exchange -&gt; exchange.request() != null &amp;&amp; exchange.request().startsWith("EVALSHA")
 *             ? Fault.cut()
 *             : Fault.pass());
 *     // connect the client under test to proxy.redisUri()
 * }
 * </pre>
 */
public final class FaultProxy implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(FaultProxy.class.getName());
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final int HELD_ANSWER_TIMEOUT_MILLIS = 5_000;

    private final String targetHost;
    private final int targetPort;
    private final WireProtocol protocol;
    private final ServerSocket listener;
    private final List<FaultRule> rules = new CopyOnWriteArrayList<>();
    private final List<Predicate<String>> holds = new CopyOnWriteArrayList<>();
    private final Set<ProxiedConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger lastConnection = new AtomicInteger();
    private final LongAdder drops = new LongAdder();
    private final LongAdder delays = new LongAdder();
    private final LongAdder cuts = new LongAdder();
    private final LongAdder replacements = new LongAdder();
    private final LongAdder swallowedBytes = new LongAdder();
    private volatile boolean closed;

    private FaultProxy(String targetHost, int targetPort, WireProtocol protocol, ServerSocket listener) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.protocol = protocol;
        this.listener = listener;
    }

    /**
     * Starts a proxy to a server, listening on a free port of 127.0.0.1.
     *
     * @param targetHost the server's host
     * @param targetPort the server's port
     * @param protocol the server's wire protocol
     * @return the running proxy, with no rules: it passes everything until told otherwise
     * @throws IllegalArgumentException if the host or protocol is {@code null}, or the port is not a TCP port
     * @throws IllegalStateException if no port could be bound
     */
    public static FaultProxy start(String targetHost, int targetPort, WireProtocol protocol) {
        if (targetHost == null || protocol == null || targetPort < 1 || targetPort > 65_535) {
            throw new IllegalArgumentException("A fault proxy needs a target host, port and protocol, not "
                    + targetHost + ":" + targetPort + " " + protocol);
        }
        ServerSocket listener;
        try {
            listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        } catch (IOException e) {
            throw new IllegalStateException("Could not listen on a free port of 127.0.0.1", e);
        }
        FaultProxy proxy = new FaultProxy(targetHost, targetPort, protocol, listener);
        Thread acceptor = new Thread(proxy::accept, "fault-proxy-" + proxy.port() + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return proxy;
    }

    /**
     * @return the host clients connect to: {@code 127.0.0.1}
     */
    public String host() {
        return "127.0.0.1";
    }

    /**
     * @return the port clients connect to
     */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * @return the proxy's address as a Redis URI, {@code redis://127.0.0.1:<port>}
     */
    public String redisUri() {
        return "redis://" + host() + ":" + port();
    }

    /**
     * Adds a rule, asked after the rules added before it. For every reply and push, the rules are asked in order and
     * the first answer other than {@link Fault#pass()} is the fault injected; if all pass, the reply is delivered.
     *
     * @param rule the rule
     * @return this proxy
     * @throws IllegalArgumentException if {@code rule} is {@code null}
     */
    public FaultProxy rule(FaultRule rule) {
        if (rule == null) {
            throw new IllegalArgumentException("A fault rule must not be null");
        }
        rules.add(rule);
        return this;
    }

    /**
     * Removes every rule: from the next reply on, everything passes. Replies already delayed stay delayed.
     */
    public void clearRules() {
        rules.clear();
    }

    /**
     * Holds requests in the network, as TCP segments stuck on a lossy path (to be retransmitted later) or kept by a
     * middlebox: from the first request that {@code request} matches on a connection, that request and every later
     * one on the same connection are kept from the server, in order, until {@link #deliverHeld()}. The client sees no
     * reply, and may time out and close its socket meanwhile; the server side of that connection then stays open,
     * receives the held requests at delivery, and ends once the server answered them (replies nobody reads).
     *
     * @param request asked about each request not yet held, with its readable text as {@link Exchange#request()}
     *        shows it on {@link WireProtocol#MONGODB} ({@code ?} on the other protocols); {@code true} to hold it
     * @return this proxy
     * @throws IllegalArgumentException if {@code request} is {@code null}
     */
    public FaultProxy holdRequests(Predicate<String> request) {
        if (request == null) {
            throw new IllegalArgumentException("A request hold must not be null");
        }
        holds.add(request);
        return this;
    }

    /**
     * @return how many requests the proxy holds now, on every connection (those whose client is gone included)
     */
    public int heldRequests() {
        int count = 0;
        for (ProxiedConnection connection : connections) {
            count += connection.heldRequests();
        }
        return count;
    }

    /**
     * Delivers every held request to the server, in the order each connection's client sent them, stops holding (the
     * holds given to {@link #holdRequests(Predicate)} are removed, and requests pass from now on), and waits until the
     * server answered each delivered request.
     *
     * @return {@code true} if the server answered every delivered request within 5 seconds, {@code false} otherwise
     */
    public boolean deliverHeld() {
        holds.clear();
        List<CountDownLatch> answers = new ArrayList<>();
        for (ProxiedConnection connection : connections) {
            CountDownLatch answered = connection.deliverHeld();
            if (answered != null) {
                answers.add(answered);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HELD_ANSWER_TIMEOUT_MILLIS);
        try {
            for (CountDownLatch answered : answers) {
                if (!answered.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                    return false;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return true;
    }

    /**
     * Makes the connections open at this moment silently dead, or ends them.
     * <p>
     * {@code true}: what either side of those connections sends from now on is read and discarded, as is every reply
     * still waiting for delivery; no RST, no FIN, no error reaches either side, as when a network drops every packet.
     * Connections opened later pass normally (a client that opens a new connection gets through).
     * <p>
     * {@code false}: closes the connections made dead so far, as the kernel at last gives up on a dead peer. A dead
     * connection never comes back to life: its byte streams lost data, and the client would take later replies for
     * the answers to lost requests.
     *
     * @param on {@code true} to make the open connections dead, {@code false} to close the dead ones
     */
    public void swallow(boolean on) {
        for (ProxiedConnection connection : connections) {
            if (on) {
                connection.swallow();
            } else if (connection.isSwallowed()) {
                connection.close();
            }
        }
    }

    /**
     * Closes every proxied connection at once, in both directions, dropping replies not yet delivered. The proxy
     * keeps listening: clients can connect again. Each connection closed counts as one cut.
     */
    public void cutAll() {
        for (ProxiedConnection connection : connections) {
            if (connection.close()) {
                cuts.increment();
            }
        }
    }

    /**
     * @return how many faults of each kind the proxy injected so far
     */
    public FaultCounts counts() {
        return new FaultCounts(drops.sum(), delays.sum(), cuts.sum(), replacements.sum(), swallowedBytes.sum());
    }

    /**
     * @return how many proxied connections are open (swallowed ones included)
     */
    public int openConnections() {
        return connections.size();
    }

    /**
     * Stops listening and closes every connection. Calling it again does nothing.
     */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing is all that is asked
        }
        for (ProxiedConnection connection : connections) {
            connection.close();
        }
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(System.Logger.Level.WARNING, "Fault proxy on port " + port() + " stops accepting", e);
                }
                return;
            }
            connect(client);
        }
    }

    private void connect(Socket client) {
        Socket server = new Socket();
        try {
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            server.connect(new InetSocketAddress(targetHost, targetPort), CONNECT_TIMEOUT_MILLIS);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "Fault proxy could not reach " + targetHost + ":" + targetPort
                    + ", so it closes the client's connection: " + e);
            closeQuietly(server);
            closeQuietly(client);
            return;
        }
        WireCodec codec = switch (protocol) {
            case REDIS -> new RespCodec();
            case MONGODB -> new MongoCodec();
            case POSTGRESQL -> new PostgresCodec();
            case MARIADB -> new MariaDbCodec();
        };
        ProxiedConnection connection = new ProxiedConnection(lastConnection.incrementAndGet(), client, server, codec,
                this);
        connections.add(connection);
        if (closed) {
            connection.close();
            return;
        }
        connection.start("fault-proxy-" + port() + "-c" + connection.id());
    }

    boolean holds(String request) {
        for (Predicate<String> hold : holds) {
            if (hold.test(request)) {
                return true;
            }
        }
        return false;
    }

    Fault decide(Exchange exchange) {
        for (FaultRule rule : rules) {
            Fault fault;
            try {
                fault = rule.decide(exchange);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "A fault rule failed on " + exchange + "; it passes", e);
                continue;
            }
            if (fault != null && !(fault instanceof Fault.Pass)) {
                return fault;
            }
        }
        return Fault.pass();
    }

    void counted(Class<? extends Fault> kind) {
        if (kind == Fault.Drop.class) {
            drops.increment();
        } else if (kind == Fault.Delay.class) {
            delays.increment();
        } else if (kind == Fault.Cut.class) {
            cuts.increment();
        } else if (kind == Fault.Replace.class) {
            replacements.increment();
        }
    }

    void swallowed(long bytes) {
        swallowedBytes.add(bytes);
    }

    void forget(ProxiedConnection connection) {
        connections.remove(connection);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all that is asked
        }
    }
}
