package io.quarkiverse.lock.testsupport.proxy;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToIntFunction;

/**
 * One client connection and its connection to the server, pumped by three threads: one forwards requests to the
 * server, one reads replies and asks the proxy's rules about each, and one delivers them to the client when due. The
 * delivery queue keeps replies in order, so a delayed reply holds back the ones after it.
 * <p>
 * From a request the proxy holds on, the connection keeps what the client sends instead of forwarding it, until
 * {@link #deliverHeld()}. If the client ends its side meanwhile, the server side stays open for the held requests, and
 * ends once the server answered them.
 */
final class ProxiedConnection {

    private static final System.Logger LOG = System.getLogger(ProxiedConnection.class.getName());
    /** Queued after the last reply to deliver before the connection closes. */
    private static final Delivery CLOSE = new Delivery(new byte[0], 0);

    private final int id;
    private final Socket client;
    private final Socket server;
    private final WireCodec codec;
    private final FaultProxy proxy;
    private final BlockingQueue<Delivery> deliveries = new LinkedBlockingQueue<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean serverClosed;
    private volatile boolean swallowed;
    private volatile Thread deliverer;
    /** Guards the writes to the server and what is held. */
    private final Object serverWrites = new Object();
    private final List<byte[]> held = new ArrayList<>();
    private OutputStream serverOut;
    private boolean holding;
    private volatile boolean clientGone;
    private volatile CountDownLatch heldAnswers;

    ProxiedConnection(int id, Socket client, Socket server, WireCodec codec, FaultProxy proxy) {
        this.id = id;
        this.client = client;
        this.server = server;
        this.codec = codec;
        this.proxy = proxy;
    }

    int id() {
        return id;
    }

    boolean isSwallowed() {
        return swallowed;
    }

    /**
     * Starts the connection's three threads.
     *
     * @param name the prefix of their names
     */
    void start(String name) {
        Thread requests = new Thread(this::forwardRequests, name + "-requests");
        Thread replies = new Thread(this::readReplies, name + "-replies");
        Thread delivery = new Thread(this::deliver, name + "-delivery");
        deliverer = delivery;
        for (Thread thread : new Thread[] { requests, replies, delivery }) {
            thread.setDaemon(true);
            thread.start();
        }
    }

    /**
     * Makes the connection silently dead: from now on, what either side sends is read and discarded, and replies
     * waiting for delivery are discarded too. The client's socket stays open (even if the server closes its side)
     * until {@link #close()}.
     */
    void swallow() {
        swallowed = true;
        Delivery waiting;
        while ((waiting = deliveries.poll()) != null) {
            proxy.swallowed(waiting.frame.length);
        }
    }

    /**
     * Closes both sides at once, dropping replies not yet delivered.
     *
     * @return {@code true} if this call closed it, {@code false} if it was closed already
     */
    boolean close() {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        serverClosed = true;
        closeQuietly(server);
        closeQuietly(client);
        Thread delivery = deliverer;
        if (delivery != null) {
            delivery.interrupt();
        }
        proxy.forget(this);
        return true;
    }

    /**
     * @return how many requests the connection holds now
     */
    int heldRequests() {
        synchronized (serverWrites) {
            return held.size();
        }
    }

    /**
     * Sends the held requests to the server, in the order the client sent them, and forwards the client's requests
     * from now on. If the client ended its side meanwhile, the server side ends once the server answered them.
     *
     * @return counts down as the server answers each of them; {@code null} if nothing was held
     */
    CountDownLatch deliverHeld() {
        synchronized (serverWrites) {
            if (!holding) {
                return null;
            }
            holding = false;
            heldAnswers = new CountDownLatch(held.size());
            try {
                for (byte[] request : held) {
                    serverOut.write(request);
                }
                serverOut.flush();
            } catch (IOException e) {
                failed("held requests", e);
            }
            held.clear();
            return heldAnswers;
        }
    }

    private void forwardRequests() {
        try {
            FrameInput in = new FrameInput(client.getInputStream());
            synchronized (serverWrites) {
                serverOut = new BufferedOutputStream(server.getOutputStream());
            }
            pump(in, codec::readRequest, request -> request.length, request -> {
                forward(request, !in.hasBuffered());
                return true;
            });
        } catch (IOException e) {
            if (serverClosed) {
                return;
            }
            failed("requests", e);
        }
        clientEnded();
    }

    /** Sends one request to the server, or keeps it when the connection holds (or this request starts holding). */
    private void forward(byte[] request, boolean flush) throws IOException {
        synchronized (serverWrites) {
            if (!holding && proxy.holds(codec.requestText(request))) {
                holding = true;
                serverOut.flush();
            }
            if (holding) {
                held.add(request);
                return;
            }
            serverOut.write(request);
            if (flush) {
                serverOut.flush();
            }
        }
    }

    /** The client ended its side: the connection closes, unless requests are held for the server. */
    private void clientEnded() {
        synchronized (serverWrites) {
            if (holding) {
                clientGone = true;
                return;
            }
        }
        close();
    }

    private void readReplies() {
        try {
            if (!pump(new FrameInput(server.getInputStream()), codec::readReply, reply -> reply.frame().length,
                    this::handle)) {
                return;
            }
        } catch (IOException e) {
            failed("replies", e);
        }
        if (swallowed) {
            serverClosed = true;
            closeQuietly(server);
        } else {
            endServerSide();
        }
    }

    /**
     * Reads frames from one side until the connection is closed, the side ends or {@code handler} stops; while the
     * connection swallows, what arrives is counted and dropped instead, whole frames and partial ones alike.
     *
     * @param in the side
     * @param reader reads one frame, {@code null} at the end of the side
     * @param size a frame's length in bytes
     * @param handler passes one frame on, {@code false} to stop reading
     * @return {@code false} if the handler stopped, {@code true} otherwise
     * @throws IOException if reading or passing on fails
     */
    private <T> boolean pump(FrameInput in, FrameReader<T> reader, ToIntFunction<T> size, FrameHandler<T> handler)
            throws IOException {
        while (!closed.get()) {
            if (swallowed) {
                long discarded = in.discard();
                if (discarded < 0) {
                    return true;
                }
                proxy.swallowed(discarded);
                continue;
            }
            T frame = reader.read(in);
            if (frame == null) {
                return true;
            }
            if (swallowed) {
                proxy.swallowed(size.applyAsInt(frame));
            } else if (!handler.handle(frame)) {
                return false;
            }
        }
        return true;
    }

    /** Reads one frame of a side, {@code null} at its end. */
    @FunctionalInterface
    private interface FrameReader<T> {
        T read(FrameInput in) throws IOException;
    }

    /** Passes one frame on, {@code false} to stop reading. */
    @FunctionalInterface
    private interface FrameHandler<T> {
        boolean handle(T frame) throws IOException;
    }

    /**
     * Asks the rules about one reply and does what they say.
     *
     * @return {@code false} if the connection was cut
     */
    private boolean handle(WireCodec.Reply reply) {
        CountDownLatch answers = heldAnswers;
        if (answers != null && !reply.push()) {
            answers.countDown();
        }
        if (clientGone) {
            return answeredAfterClientGone(answers);
        }
        Fault fault = proxy.decide(new Exchange(id, reply.request(), reply.text(), reply.push(), reply.endsAnswer()));
        long now = System.nanoTime();
        if (fault instanceof Fault.Delay delay) {
            proxy.counted(Fault.Delay.class);
            deliveries.add(new Delivery(reply.frame(), now + delay.duration().toNanos()));
        } else if (fault instanceof Fault.Drop) {
            proxy.counted(Fault.Drop.class);
        } else if (fault instanceof Fault.Cut) {
            proxy.counted(Fault.Cut.class);
            endServerSide();
            return false;
        } else if (fault instanceof Fault.Replace replace) {
            proxy.counted(Fault.Replace.class);
            deliveries.add(new Delivery(codec.fit(replace.frame(), reply), now));
        } else {
            deliveries.add(new Delivery(reply.frame(), now));
        }
        return true;
    }

    /**
     * A reply to a held request whose client is gone: nobody reads it.
     *
     * @return {@code false} once the server answered every held request, and the connection is closed
     */
    private boolean answeredAfterClientGone(CountDownLatch answers) {
        if (answers == null || answers.getCount() > 0) {
            return true;
        }
        close();
        return false;
    }

    /** Closes the server side now, and the client side once the replies before this point are delivered. */
    private void endServerSide() {
        serverClosed = true;
        closeQuietly(server);
        deliveries.add(CLOSE);
    }

    private void deliver() {
        try {
            OutputStream out = new BufferedOutputStream(client.getOutputStream());
            while (!closed.get()) {
                Delivery delivery = deliveries.take();
                if (delivery == CLOSE) {
                    if (swallowed) {
                        continue;
                    }
                    out.flush();
                    break;
                }
                long wait = delivery.dueNanos - System.nanoTime();
                if (wait > 0) {
                    out.flush();
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                if (swallowed) {
                    proxy.swallowed(delivery.frame.length);
                    continue;
                }
                out.write(delivery.frame);
                if (deliveries.isEmpty()) {
                    out.flush();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            failed("delivery", e);
        }
        close();
    }

    private void failed(String pump, IOException e) {
        if (!closed.get()) {
            LOG.log(System.Logger.Level.DEBUG, "Proxied connection " + id + " ends (" + pump + "): " + e);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all that is asked
        }
    }

    /** A reply's frame and when it is due at the client, in {@link System#nanoTime()}. */
    private record Delivery(byte[] frame, long dueNanos) {
    }
}
