package io.quarkiverse.lock.runtime.store.redis;

import java.io.ByteArrayOutputStream;
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
 * Second break-test helper, a variant of {@link HoldingProxy}: a TCP proxy whose connections can keep what the client
 * sends (as segments stuck in a lossy path, delivered later by retransmission), and whose new connections can be
 * held from the start or after their first request (the client's HELLO), or refused.
 * <ul>
 * <li>{@link #holdOpenConnections()}: connections open now keep what the client sends from now on;</li>
 * <li>{@link #holdNextConnections(int, boolean)}: the next connections keep what the client sends from their first
 * byte, or from their second read (after the handshake);</li>
 * <li>{@link #refuseNextConnections(int)}: the next connections are closed as soon as they are accepted (as a path
 * that is still broken when the client reconnects);</li>
 * <li>{@link #resetHeldClients()}: the client side of the held connections is reset (RST), as a middlebox that gives
 * up on the client while it still has its bytes for the server; the server side stays open;</li>
 * <li>{@link #deliverHeld()}: the held bytes reach the server, and then the server side ends.</li>
 * </ul>
 */
final class StallingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final Set<Conn> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger holdNext = new AtomicInteger();
    private volatile boolean holdAfterHandshake;
    private final AtomicInteger refuseNext = new AtomicInteger();
    final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean closed;

    StallingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread acceptor = new Thread(this::accept, "stalling-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
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

    /** Closes every connection at once, both sides, holding nothing. */
    void cutAll() {
        for (Conn conn : connections) {
            conn.close();
        }
    }

    void resetHeldClients() {
        for (Conn conn : connections) {
            conn.resetClientIfHolding();
        }
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
                if (refuseNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    client.setSoLinger(true, 0);
                    client.close();
                    continue;
                }
                Socket server = new Socket();
                server.connect(new InetSocketAddress("127.0.0.1", targetPort), 5_000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                Conn conn = new Conn(client, server);
                if (holdNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
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

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
        }
        for (Conn conn : connections) {
            conn.close();
        }
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
                client.close();
            } catch (IOException ignored) {
            }
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
            }
            held.reset();
            holding = false;
            Thread closer = new Thread(() -> {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException ignored) {
                }
                close();
            });
            closer.setDaemon(true);
            closer.start();
            return size;
        }

        void start() {
            Thread up = new Thread(this::pumpUp, "stalling-proxy-up");
            up.setDaemon(true);
            up.start();
            Thread down = new Thread(this::pumpDown, "stalling-proxy-down");
            down.setDaemon(true);
            down.start();
        }

        private void pumpUp() {
            byte[] buffer = new byte[16384];
            try {
                InputStream in = client.getInputStream();
                OutputStream out = server.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    synchronized (this) {
                        if (holding && passBeforeHolding == 0) {
                            held.write(buffer, 0, n);
                        } else {
                            if (holding) {
                                passBeforeHolding--;
                            }
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    }
                }
            } catch (IOException ignored) {
            }
            synchronized (this) {
                clientGone = true;
                if (!holding) {
                    close();
                }
            }
        }

        private void pumpDown() {
            byte[] buffer = new byte[16384];
            try {
                InputStream in = server.getInputStream();
                OutputStream out = client.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    try {
                        out.write(buffer, 0, n);
                        out.flush();
                    } catch (IOException clientClosed) {
                        // the client is gone; the server's replies go nowhere
                    }
                }
            } catch (IOException ignored) {
            }
        }

        void close() {
            connections.remove(this);
            try {
                client.close();
            } catch (IOException ignored) {
            }
            try {
                server.close();
            } catch (IOException ignored) {
            }
        }
    }
}
