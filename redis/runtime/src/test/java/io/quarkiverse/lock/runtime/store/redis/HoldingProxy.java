package io.quarkiverse.lock.runtime.store.redis;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy that models what the shared {@code FaultProxy} cannot, a request delayed in the
 * network. Its connections can keep what the client sends (as TCP segments stuck in a lossy path, retransmitted
 * later); the client may time out and close its socket meanwhile. Its new connections can be held from the start or
 * after their first request (the client's HELLO), or refused.
 * <ul>
 * <li>{@link #holdOpenConnections()}: connections open now keep what the client sends from now on;</li>
 * <li>{@link #holdNextConnections(int, boolean)}: the next connections keep what the client sends from their first
 * byte, or from their second read (after the handshake);</li>
 * <li>{@link #refuseNextConnections(int)}: the next connections are closed as soon as they are accepted (as a path
 * that is still broken when the client reconnects);</li>
 * <li>{@link #resetHeldClients()}: the client side of the held connections is reset (RST), as a middlebox that gives
 * up on the client while it still has its bytes for the server; the server side stays open;</li>
 * <li>{@link #cutAll()}: every connection is closed at once, both sides, holding nothing;</li>
 * <li>{@link #deliverHeld()}: the held bytes reach the server, as the kernel's retransmission of data sent before the
 * close does once the path heals, and only then does the server side end (right after, or once the client is gone,
 * as chosen when the proxy was made).</li>
 * </ul>
 * Connections not held pass.
 */
final class HoldingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final boolean endAfterDelivery;
    private final Set<Conn> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger holdNext = new AtomicInteger();
    private volatile boolean holdAfterHandshake;
    private final AtomicInteger refuseNext = new AtomicInteger();
    final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param targetPort the port of the redis-server on 127.0.0.1
     * @param endAfterDelivery {@code true}: a connection whose held bytes were delivered ends (both sides) half a
     *        second later; {@code false}: it ends then only if its client is gone, and otherwise passes from then on
     */
    HoldingProxy(int targetPort, boolean endAfterDelivery) throws IOException {
        this.targetPort = targetPort;
        this.endAfterDelivery = endAfterDelivery;
        this.listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        daemon(this::accept, "holding-proxy-accept");
    }

    String redisUri() {
        return "redis://127.0.0.1:" + listener.getLocalPort();
    }

    void holdOpenConnections() {
        for (Conn conn : connections) {
            conn.hold(0);
        }
    }

    void holdNextConnections(int count, boolean afterHandshake) {
        holdAfterHandshake = afterHandshake;
        holdNext.set(count);
    }

    void refuseNextConnections(int count) {
        refuseNext.set(count);
    }

    void cutAll() {
        connections.forEach(Conn::close);
    }

    void resetHeldClients() {
        connections.forEach(Conn::resetClientIfHolding);
    }

    /** @return how many bytes were delivered late */
    int deliverHeld() {
        int delivered = 0;
        for (Conn conn : connections) {
            delivered += conn.deliverHeld();
        }
        return delivered;
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                accepted.incrementAndGet();
                if (takeOne(refuseNext)) {
                    client.setSoLinger(true, 0);
                    client.close();
                    continue;
                }
                Socket server = new Socket();
                server.connect(new InetSocketAddress("127.0.0.1", targetPort), 5_000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                Conn conn = new Conn(client, server);
                if (takeOne(holdNext)) {
                    conn.hold(holdAfterHandshake ? 1 : 0);
                }
                connections.add(conn);
                conn.start();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    /** @return whether {@code count} was positive; it is then one less */
    private static boolean takeOne(AtomicInteger count) {
        return count.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        cutAll();
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // closing is all that is asked
        }
    }

    private static void daemon(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }

    private final class Conn {

        final Socket client;
        final Socket server;
        final ByteArrayOutputStream held = new ByteArrayOutputStream();
        boolean holding;
        int passBeforeHolding;
        boolean clientGone;

        Conn(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        synchronized void hold(int readsToPass) {
            holding = true;
            passBeforeHolding = readsToPass;
        }

        synchronized void resetClientIfHolding() {
            if (!holding) {
                return;
            }
            try {
                client.setSoLinger(true, 0);
            } catch (IOException ignored) {
                // closed already
            }
            closeQuietly(client);
        }

        synchronized int deliverHeld() {
            if (!holding) {
                return 0;
            }
            int size = held.size();
            try {
                server.getOutputStream().write(held.toByteArray());
                server.getOutputStream().flush();
            } catch (IOException ignored) {
                // the server side is gone: nothing to deliver to
            }
            held.reset();
            holding = false;
            if (endAfterDelivery || clientGone) {
                daemon(() -> {
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException ignored) {
                        // end now
                    }
                    close();
                }, "holding-proxy-end");
            }
            return size;
        }

        void start() {
            daemon(this::pumpUp, "holding-proxy-up");
            daemon(this::pumpDown, "holding-proxy-down");
        }

        /** Client to server: what arrives while holding is kept, the rest passes. */
        private void pumpUp() {
            pump(client, server, true);
            synchronized (this) {
                clientGone = true;
                if (!holding) {
                    close();
                }
            }
        }

        /** Server to client: replies pass; once the client is gone they go nowhere. */
        private void pumpDown() {
            pump(server, client, false);
        }

        private void pump(Socket from, Socket to, boolean mayHold) {
            byte[] buffer = new byte[16384];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (mayHold) {
                        forwardOrHold(out, buffer, n);
                    } else {
                        try {
                            out.write(buffer, 0, n);
                            out.flush();
                        } catch (IOException clientClosed) {
                            // the client is gone; the server's replies go nowhere
                        }
                    }
                }
            } catch (IOException ignored) {
                // the reading side ended
            }
        }

        private synchronized void forwardOrHold(OutputStream out, byte[] buffer, int n) throws IOException {
            if (holding && passBeforeHolding == 0) {
                held.write(buffer, 0, n);
                return;
            }
            if (holding) {
                passBeforeHolding--;
            }
            out.write(buffer, 0, n);
            out.flush();
        }

        void close() {
            connections.remove(this);
            closeQuietly(client);
            closeQuietly(server);
        }
    }
}
