"""The MQTT client both sides use: paho-mqtt (MQTT 5, QoS 1, persistent sessions).

paho runs its network loop in a thread of its own; ``AsyncPublisher`` hands its
acknowledgements to the asyncio loop (a publish is awaited until the broker's PUBACK),
``Subscriber`` hands each message to a thread of its own, which calls a handler and
acknowledges the message only after the handler returned, or, for a message the handler
keeps for later (a match: checked by the league's workers), when the handler says it is
stored (``manual_ack``): a league service killed while it checks or stores a match gets
the match again from the broker. paho's thread
itself only queues: however long a handler takes, the connection's keepalive goes on.
docs/design.md says why paho and not aiomqtt.
"""

from __future__ import annotations

import asyncio
import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from .broker_url import BrokerURL


class LeanProperties(Properties):
    """paho's ``Properties`` with its tables built once. paho makes one for every PUBLISH it
    reads, and its ``__init__`` builds two tables of 27 names each time, then ``unpack``'s
    ``clear`` runs the 27 through ``str.replace`` and ``hasattr``: 32 us of the 40 us that
    paho's thread spends decoding a match message, none of it needed, the message having no
    properties (a golf match costs the league ~0.8 ms of CPU). The tables are paho's own,
    shared (paho only reads them); every other method is paho's."""

    def __init__(self, packetType: int) -> None:
        for name in _OWN_FIELDS:
            object.__setattr__(self, name, getattr(_TABLES, name))
        object.__setattr__(self, "packetType", packetType)

    def clear(self) -> None:
        for name in [n for n in vars(self) if n not in _OWN_FIELDS and n != "packetType"]:
            delattr(self, name)


#: paho's tables, built once by paho itself, and the fields of a ``Properties`` that are no property
_TABLES = Properties(PacketTypes.PUBLISH)
_OWN_FIELDS = ("types", "names", "properties")


def _lean_decode() -> bool:
    """paho's PUBLISH decoder made to build ``LeanProperties`` (paho 2.1+: ``paho.mqtt._packet``
    decodes the packets a client reads); False where paho is laid out otherwise (then it
    builds its own, as before)."""
    try:
        from paho.mqtt import _packet
    except ImportError:
        return False
    if getattr(_packet, "Properties", None) not in (Properties, LeanProperties):
        return False
    _packet.Properties = LeanProperties  # type: ignore[attr-defined]
    return True


LEAN_DECODE = _lean_decode()

#: how long the broker keeps a session (its subscriptions, the messages queued for it)
SESSION_EXPIRY_S = 30 * 24 * 3600
KEEPALIVE_S = 20
RECONNECT_S = (1, 15)
#: seconds between two tries to store a received message that could not be stored (locked, disk full)
RETRY_HANDLE_S = (0.5, 10.0)
#: an acknowledgement that came before its publish was registered counts this long
EARLY_S = 5.0
#: the most messages the broker sends the league before their acknowledgement (MQTT 5
#: Receive Maximum), and the most the subscriber holds unacknowledged (``Subscriber``): at
#: this many, or ``HELD_BYTES``, it stops reading its socket (``_Gated``), so what waits in
#: the service's memory is bounded whatever the broker does (Mosquitto 2.0.11 ignores the
#: Receive Maximum once messages queue for the league: its quota was counted wrong until
#: 2.0.13). 100, not fewer: the checkers and the committer overlap (a batch synced while
#: the next are checked) only with enough matches in hand
RECEIVE_MAXIMUM = 100
#: the most bytes of messages the subscriber holds unacknowledged (as above): the service's
#: memory for them stays under this and one message more (at most ``MAXIMUM_PACKET``)
HELD_BYTES = 32 * 1024 * 1024
#: seconds paho's thread waits at most for room before it writes and keeps the connection
#: alive (the acknowledgements, a ping), then waits again
ROOM_WAIT_S = 0.1
#: the largest packet the league takes from the broker (MQTT 5 Maximum Packet Size): a
#: broker set up without the league's message_size_limit passes on messages up to this
#: size, which the service refuses by their size and lists; a bigger one the broker drops
#: unseen, so that no message can cost the service more than a few times this in memory
MAXIMUM_PACKET = 32 * 1024 * 1024


#: paho's clock (its keepalive's times)
_PAHO_TIME: Callable[[], float] = getattr(paho, "time_func", time.monotonic)


class PublishRefused(Exception):
    """The broker answered a publish with a failure (the ACL refused the topic)."""


class NotConnected(Exception):
    """No connection to the broker now (the publish may be tried again later)."""


#: the PUBACK reason (MQTT 5) of a broker that took a message and had no subscription for it
NO_MATCHING_SUBSCRIBERS = 16


class NoSubscriber(Exception):
    """The broker took the message and dropped it: nobody subscribes to its topic (a broker
    the league service has never connected to, or whose session of the league expired)."""


class _Gated(paho.Client):
    """paho's client that reads its socket only while ``room()`` says so (paho's thread calls
    ``loop_read`` each time select finds the socket readable): with no room the broker's
    messages stay in the socket and the kernel's buffers, and TCP's window stops the broker.
    paho's thread goes on writing (the acknowledgements that make room) and pinging.
    ``room(timeout)`` waits up to ``timeout`` seconds for room; True once there is. paho's
    ``loop_read`` reads one packet, or one more for each publish of ours awaiting its
    PUBACK (the league's nights: one at a time), so the limit is passed by one at most.

    Bytes left unread are the broker's word that it is there: paho's keepalive is told so
    (``_still_heard``), or, reading no PINGRESP behind them, it hangs up after two keepalives
    without room, and again each keepalive while the service is still full (the broker sending
    every match in flight again each time)."""

    room: Callable[[float], bool] | None = None

    def loop_read(self, max_packets: int = 1) -> paho.MQTTErrorCode:
        if self.room is not None and not self.room(ROOM_WAIT_S):
            self._still_heard()
            return paho.MQTTErrorCode.MQTT_ERR_SUCCESS  # unread: the next turn of paho's loop
        return super().loop_read(max_packets)

    def _still_heard(self) -> None:
        """The socket is readable (paho's select said so) and left unread: the broker sent
        something, as a read would have told paho's keepalive (paho 2.1+'s own fields)."""
        mutex = getattr(self, "_msgtime_mutex", None)
        if mutex is not None and hasattr(self, "_last_bytes_received"):
            with mutex:
                self._last_bytes_received = _PAHO_TIME()


def make_client(url: BrokerURL, client_id: str, *, manual_ack: bool = False) -> paho.Client:
    client = _Gated(CallbackAPIVersion.VERSION2, client_id=client_id,
                    protocol=MQTTProtocolVersion.MQTTv5, manual_ack=manual_ack)
    if url.username:
        client.username_pw_set(url.username, url.password)
    if url.tls:
        client.tls_set(ca_certs=url.ca)
    client.reconnect_delay_set(*RECONNECT_S)
    return client


def start(client: paho.Client, url: BrokerURL, receive_maximum: int | None = None,
          maximum_packet: int | None = None) -> None:
    """Connect (retried in the background until the broker answers) with a persistent session."""
    props = Properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = SESSION_EXPIRY_S
    if receive_maximum is not None:
        props.ReceiveMaximum = receive_maximum
    if maximum_packet is not None:
        props.MaximumPacketSize = maximum_packet
    client.connect_async(url.host, url.port, keepalive=KEEPALIVE_S, clean_start=False, properties=props)
    client.loop_start()


def stop(client: paho.Client) -> None:
    client.disconnect()
    client.loop_stop()


class Reporter:
    """Says each change of the connection once on stderr (not every retry)."""

    def __init__(self, who: str, url: BrokerURL) -> None:
        self.who, self.url = who, url
        self.last = ""
        self.closing = False  # we are the ones hanging up: no news

    def say(self, text: str) -> None:
        if text != self.last:
            self.last = text
            print(f"tablesense {self.who}: {text}", file=sys.stderr, flush=True)

    def connected(self, reason: Any) -> bool:
        if getattr(reason, "is_failure", False):
            self.say(f"the broker {self.url} refuses us: {reason}")
            return False
        self.say(f"connected to the broker {self.url}")
        return True

    def unreachable(self, client: paho.Client, userdata: Any) -> None:
        """paho's ``on_connect_fail``: no answer from the broker (down, no route, refused)."""
        self.say(f"cannot reach the broker {self.url}; trying again")

    def disconnected(self, reason: Any) -> None:
        if self.closing:
            return
        if self.last.startswith(f"the broker {self.url} refuses us"):
            return  # the refusal said it: the drop after it is no news
        self.say(f"the broker {self.url} is gone ({reason}); trying again")


class AsyncPublisher:
    """Publishes from asyncio; ``await publish(...)`` returns once the broker has the message."""

    def __init__(self, url: BrokerURL, client_id: str, who: str = "run") -> None:
        self.loop = asyncio.get_running_loop()
        self.up = asyncio.Event()
        self.report = Reporter(who, url)
        self._lock = threading.Lock()
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._early: dict[int, tuple[Any, float]] = {}
        self.client = make_client(url, client_id)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self.client.on_connect_fail = self.report.unreachable
        self.url = url
        self.on_up: Callable[[], None] | None = None
        #: topics read (QoS 1) and what the loop's thread does with each message on them
        self._listen: dict[str, Callable[[bytes], None]] = {}

    def listen(self, topic: str, handler: Callable[[bytes], None]) -> None:
        """Subscribe to ``topic`` (on every connect); ``handler(payload)`` runs in the loop's thread."""
        self._listen[topic] = handler

    def start(self) -> None:
        start(self.client, self.url)

    def close(self) -> None:
        self.report.closing = True
        stop(self.client)

    async def publish(self, topic: str, payload: bytes, *, retain: bool = False,
                      timeout: float = 15.0, for_someone: bool = False) -> None:
        """``for_someone``: ``NoSubscriber`` if the broker answers that it had nobody to give
        the message to (and dropped it)."""
        if not self.up.is_set():
            raise NotConnected("not connected")
        fut: asyncio.Future[Any] = self.loop.create_future()
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        with self._lock:
            early = self._early.pop(info.mid, None)
            if early is not None and time.monotonic() - early[1] < EARLY_S:
                self._settle(fut, early[0])
            else:
                self._waiting[info.mid] = fut
        try:
            async with asyncio.timeout(timeout):  # not wait_for, which can swallow a cancel (3.11)
                reason = await fut
        except TimeoutError:
            raise NotConnected("no PUBACK in time") from None
        finally:
            with self._lock:
                self._waiting.pop(info.mid, None)
        if for_someone and getattr(reason, "value", 0) == NO_MATCHING_SUBSCRIBERS:
            raise NoSubscriber(str(reason))

    # --- paho's thread -------------------------------------------------------------------
    def _on_connect(self, client: paho.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if self.report.connected(reason):
            for topic in self._listen:
                client.subscribe(topic, qos=1)
            self.loop.call_soon_threadsafe(self._set_up, True)

    def _on_message(self, client: paho.Client, userdata: Any, msg: paho.MQTTMessage) -> None:
        handler = self._listen.get(msg.topic)
        if handler is not None:
            try:
                self.loop.call_soon_threadsafe(handler, bytes(msg.payload))
            except RuntimeError:  # the loop is closing: the retained message comes again
                pass

    def _on_disconnect(self, client: paho.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self.report.disconnected(reason)
        try:
            self.loop.call_soon_threadsafe(self._set_up, False)
        except RuntimeError:  # the loop closed before paho's thread said goodbye: nobody waits
            pass

    def _on_publish(self, client: paho.Client, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        with self._lock:
            fut = self._waiting.pop(mid, None)
            if fut is None:
                self._early[mid] = (reason, time.monotonic())  # before publish() registered it,
                return  # or one paho sent again after a reconnect (nobody waits; dropped by age)
        self.loop.call_soon_threadsafe(self._settle, fut, reason)

    # --- the loop's thread ---------------------------------------------------------------
    def _set_up(self, up: bool) -> None:
        if up:
            self.up.set()
            if self.on_up is not None:
                self.on_up()
            return
        self.up.clear()
        with self._lock:
            waiting, self._waiting = self._waiting, {}
        for fut in waiting.values():
            if not fut.done():
                fut.set_exception(NotConnected("the connection dropped"))

    @staticmethod
    def _settle(fut: asyncio.Future[Any], reason: Any) -> None:
        if fut.done():
            return
        if getattr(reason, "is_failure", False):
            fut.set_exception(PublishRefused(str(reason)))
        else:
            fut.set_result(reason)


@dataclass(frozen=True, slots=True)
class Delivery:
    """A message as the broker delivered it, to be acknowledged (``Subscriber.ack``)."""

    mid: int
    qos: int
    session: int  # the connection it came on (``Subscriber.ack`` drops an older one's)
    size: int = 0  # its payload's bytes (held until it is acknowledged)


class Subscriber:
    """Subscribes to ``topic`` with QoS 1; ``handle(topic, payload, retained, delivery)`` runs
    in a thread of the subscriber's own (not paho's: its keepalive never waits for a handler).
    A message is acknowledged when ``handle`` returns True, or, when it returns False, once
    the handler's own ``ack(delivery)`` says it is kept (a match, after its commit).

    It holds at most ``limit`` messages received and not acknowledged (``held``), and at
    most ``max_bytes`` of them and one message more (``held_bytes``): at either limit paho's
    thread leaves the socket unread until acknowledgements make room (the broker is asked for
    as few, MQTT 5 Receive Maximum, and may send more: Mosquitto 2.0.11 did). A message of a
    connection that dropped counts until the handler is done with it."""

    def __init__(self, url: BrokerURL, client_id: str, topic: str,
                 handle: Callable[[str, bytes, bool, Delivery], bool], who: str = "league serve",
                 retry_on: tuple[type[BaseException], ...] = (), limit: int = RECEIVE_MAXIMUM,
                 quick: Callable[[str, bytes, Delivery], bool] | None = None,
                 max_bytes: int = HELD_BYTES) -> None:
        """``quick(topic, payload, delivery)``: runs in paho's thread first and takes the
        message (True: the handler's, acknowledged by its ``ack``) if it can without waiting
        for anything (no I/O; a match handed to the checkers), else ``handle`` gets it."""
        self.url, self.topic, self.handle, self.retry_on, self.limit = url, topic, handle, retry_on, limit
        self.quick, self.max_bytes = quick, max_bytes
        self.report = Reporter(who, url)
        #: set once the broker granted the subscription on this connection (its SUBACK), not at
        #: the connection: a match a pub sends before then is dropped by a broker that has no
        #: subscription of the league yet (a new one, or a session expired; Mosquitto answers
        #: the pub "No matching subscribers"), and is not the service's to receive
        self.connected = threading.Event()
        self._subscribing: int | None = None  # the SUBSCRIBE of this connection, awaiting its SUBACK
        #: the connection's number: a message delivered on an earlier one is not acknowledged
        #: on this one (the broker sends it again, and may have given its id to another since)
        self._session = 0
        self._acking = threading.Lock()
        #: messages received and not acknowledged (nor dropped), the most there ever were
        self.held = self.held_most = self.held_bytes = self.held_bytes_most = 0
        self._paused = False  # a limit was reached: the socket unread until half are done
        self._room = threading.Condition()
        self.client = make_client(url, client_id, manual_ack=True)
        assert isinstance(self.client, _Gated)
        self.client.room = self._wait_room
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self.client.on_connect_fail = self.report.unreachable
        self._queue: queue.Queue[tuple[paho.MQTTMessage, Delivery] | None] = queue.Queue()
        self._stop = threading.Event()
        self._keeper = threading.Thread(target=self._keep, name=f"{who} messages", daemon=True)

    def start(self) -> None:
        self._keeper.start()
        start(self.client, self.url, self.limit, MAXIMUM_PACKET)

    def close(self) -> None:
        self._stop.set()
        with self._room:
            self._room.notify_all()
        self._queue.put(None)
        self.report.closing = True
        stop(self.client)
        if self._keeper.is_alive():
            self._keeper.join(10)

    def _on_connect(self, client: paho.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        with self._acking:
            self._session += 1
        if self.report.connected(reason):
            self._subscribing = client.subscribe(self.topic, qos=1)[1]  # connected: at its SUBACK

    def _on_subscribe(self, client: paho.Client, userdata: Any, mid: int, reasons: Any, props: Any) -> None:
        """paho's thread: the SUBACK. Granted: what a pub publishes from now on is the league's
        (``connected``); refused: said, and nothing is received."""
        if mid != self._subscribing:
            return
        self._subscribing = None
        refused = [r for r in reasons if getattr(r, "is_failure", False)]
        if refused:
            self.report.say(f"the broker {self.url} refuses the subscription to {self.topic} ({refused[0]})")
            return
        self.connected.set()

    def _on_disconnect(self, client: paho.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        with self._acking:
            self._session += 1  # from here no acknowledgement of the connection that ended
        self._subscribing = None
        self.connected.clear()
        self.report.disconnected(reason)

    def ack(self, delivery: Delivery) -> None:
        """Acknowledge a message the handler kept (any thread); one of an earlier connection
        is not: the broker sends it again on this one, where its id may be another's."""
        try:
            with self._acking:
                if delivery.session == self._session and delivery.qos > 0:
                    self.client.ack(delivery.mid, delivery.qos)
        finally:
            self._done(delivery.size)

    def _done(self, size: int) -> None:
        """A message held no more (acknowledged, or one of a connection that dropped)."""
        with self._room:
            self.held -= 1
            self.held_bytes -= size
            if self._paused and self._half():
                self._room.notify()

    def _half(self) -> bool:
        return self.held <= self.limit // 2 and self.held_bytes <= self.max_bytes // 2

    def _wait_room(self, timeout: float) -> bool:
        """paho's thread, before it reads its socket: True while under both limits; at one,
        False until what is held is down to half of each (waits up to ``timeout`` s for that;
        False: the socket stays unread this turn). Reading again at half, not at the first
        acknowledgement: paho's thread then reads a run of messages, not one a wake-up."""
        with self._room:
            if self.held >= self.limit or self.held_bytes >= self.max_bytes:
                self._paused = True
            if self._paused and not self._half() and not self._stop.is_set():
                self._room.wait(timeout)
            if self._half():
                self._paused = False
            return not self._paused

    def _on_message(self, client: paho.Client, userdata: Any, msg: paho.MQTTMessage) -> None:
        with self._acking:  # the connection it came on (paho's thread: the one that changes it)
            delivery = Delivery(msg.mid, msg.qos, self._session, len(msg.payload))
        with self._room:
            self.held += 1
            self.held_bytes += delivery.size
            self.held_most = max(self.held_most, self.held)
            self.held_bytes_most = max(self.held_bytes_most, self.held_bytes)
        if self.quick is not None:
            try:
                if self.quick(msg.topic, msg.payload, delivery):
                    return
            except Exception as exc:  # the handler's thread tries it again, and says what fails
                self.report.say(f"a message on {msg.topic} was handed on: {exc!r}")
        self._queue.put((msg, delivery))  # paho's thread only queues (or hands a match on)

    def _keep(self) -> None:
        while True:
            got = self._queue.get()
            if got is None or self._stop.is_set():
                return
            msg, delivery = got
            if self._handle(msg, delivery):
                self.ack(delivery)

    def _handle(self, msg: paho.MQTTMessage, delivery: Delivery) -> bool:
        """Handle one message; True once it may be acknowledged. A failure of kind
        ``retry_on`` (the database locked by another program, a full disk) is tried again
        until it passes, the messages behind it waiting; any other is said and the message
        dropped. False: the handler acknowledges it itself, or the subscriber is stopping
        (the broker sends it again)."""
        delay, failing = RETRY_HANDLE_S[0], False
        while True:
            try:
                done = self.handle(msg.topic, msg.payload, bool(msg.retain), delivery)
                break
            except self.retry_on as exc:
                if not failing:
                    failing = True
                    self.report.say(f"a message on {msg.topic} cannot be stored now ({exc}); trying again")
                if self._stop.wait(delay):
                    return False
                delay = min(delay * 2, RETRY_HANDLE_S[1])
            except Exception as exc:
                self.report.say(f"a message on {msg.topic} was dropped: {exc!r}")
                done = True
                break
        if failing:
            self.report.say("messages are stored again")
        return done
