"""
The moderator's outgoing mail: an SMTP server reached over aiosmtplib, and the
back-off the outbox waits between tries.

``SmtpSink.send`` either hands a mail over or raises ``MailTransportError``
whose ``permanent`` flag tells the outbox what to do:

- **permanent** (``True``): the server answered the mail itself with a 5xx
  code, at ``MAIL FROM``, ``RCPT TO`` (every recipient) or ``DATA``; the same
  mail would be refused again, so the outbox gives up on it.
- **temporary** (``False``): a 4xx answer, a refused, dropped or timed-out
  connection, and failures before the mail was offered (greeting, ``EHLO``,
  ``STARTTLS``, ``AUTH``): those say nothing about the mail, and it may pass
  once the server or our settings are right, so the outbox tries again at
  ``next_attempt``.

When some recipients are refused and others accepted the mail was sent;
``send`` returns the refusals instead of raising, since a retry would send it
twice to the others.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterable, Mapping
from dataclasses import field
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Literal, Protocol, Self

import aiosmtplib

from moderator.mail.errors import MailTransportError
from moderator.records import record

#: How the connection to the SMTP server is secured.
TlsMode = Literal["none", "starttls", "tls"]
TLS_MODES: tuple[TlsMode, ...] = ("none", "starttls", "tls")


class RandomSource(Protocol):
    """Where the jitter comes from: ``random.Random`` or any object with ``random()``."""

    def random(self) -> float:
        """A float in [0, 1)."""
        ...


@record
class SendResult:
    """
    A mail the server took: its last reply, and the recipients it refused
    (address to ``(code, message)``; empty when all were accepted).
    """

    reply: str
    refused: Mapping[str, tuple[int, str]] = field(default_factory=dict)


def next_attempt(
    attempts: int,
    now: datetime,
    *,
    rng: RandomSource,
    base: timedelta = timedelta(minutes=1),
    cap: timedelta = timedelta(hours=6),
    jitter: float = 0.25,
) -> datetime:
    """
    When to try a mail again after ``attempts`` failed tries.

    The wait doubles with every try, ``base`` after the first, and never
    exceeds ``cap``; then up to ``jitter`` of it (a fraction) is taken off at
    random, so mails that failed together do not all come back together.
    Pure: the randomness comes from ``rng``.

    >>> import random
    >>> start = datetime(2024, 1, 1)
    >>> [next_attempt(n, start, rng=random.Random(1), jitter=0) - start for n in (1, 2, 3)]
    [datetime.timedelta(seconds=60), datetime.timedelta(seconds=120), datetime.timedelta(seconds=240)]
    >>> next_attempt(40, start, rng=random.Random(1), jitter=0) - start
    datetime.timedelta(seconds=21600)
    """
    if not 0 <= jitter <= 1:
        msg = f"jitter must be a fraction between 0 and 1, not {jitter!r}"
        raise ValueError(msg)
    doublings = min(max(attempts, 1) - 1, 64)  # 2**64 minutes is past any cap
    wait = min(base.total_seconds() * 2.0**doublings, cap.total_seconds())
    wait *= 1 - jitter * rng.random()
    return now + timedelta(seconds=wait)


class SmtpSink:
    """
    An SMTP server to send through; one connection per ``send``, or one for many
    mails through a ``session``.

    ``tls`` is ``"none"`` (plain, and no opportunistic STARTTLS either),
    ``"starttls"`` (required) or ``"tls"`` (implicit TLS, port 465).
    ``tls_context`` replaces the default verifying context; ``local_hostname``
    is the name given in ``EHLO`` (default: this host's FQDN).
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        user: str | None = None,
        password: str | None = None,
        tls: TlsMode = "none",
        tls_context: ssl.SSLContext | None = None,
        local_hostname: str | None = None,
        timeout: float = 60.0,
    ) -> None:
        if tls not in TLS_MODES:
            msg = f"tls must be one of {TLS_MODES!r}, not {tls!r}"
            raise ValueError(msg)
        if (user is None) != (password is None):
            msg = "smtp user and password go together: give both or neither"
            raise ValueError(msg)
        self.host = host
        self.port = port
        self.user = user
        self.tls: TlsMode = tls
        self._password = password
        self._tls_context = tls_context
        self._local_hostname = local_hostname
        self._timeout = timeout

    def __repr__(self) -> str:
        return f"SmtpSink({self.host!r}, {self.port!r}, user={self.user!r}, tls={self.tls!r})"

    async def send(
        self, message: EmailMessage | bytes, sender: str, recipients: Iterable[str]
    ) -> SendResult:
        """
        Send ``message`` (its bytes as they are, or an ``EmailMessage``) from
        the envelope ``sender`` to the envelope ``recipients``, over a
        connection of its own.

        Raises:
            MailTransportError: nothing was sent; ``permanent`` says whether to
                give up (see the module's docstring).
        """
        async with self.session() as session:
            return await session.send(message, sender, recipients)

    def session(self) -> SmtpSession:
        """One connection for many mails (``async with sink.session() as s``)."""
        return SmtpSession(self)

    def _client(self) -> aiosmtplib.SMTP:
        return aiosmtplib.SMTP(
            hostname=self.host,
            port=self.port,
            username=self.user,
            password=self._password,
            use_tls=self.tls == "tls",
            start_tls=self.tls == "starttls",
            tls_context=self._tls_context,
            local_hostname=self._local_hostname,
            timeout=self._timeout,
        )


class SmtpSession:
    """
    A connection to an ``SmtpSink``'s server kept open between mails: opened at the
    first ``send``, opened again after any failure, closed with QUIT at the end.
    Saves a connection, greeting, ``EHLO``, ``STARTTLS`` and ``AUTH`` per mail.
    """

    def __init__(self, sink: SmtpSink) -> None:
        self.sink = sink
        self._client: aiosmtplib.SMTP | None = None

    @property
    def connected(self) -> bool:
        """Whether the session holds a connection the server has not dropped."""
        return self._client is not None and self._client.is_connected

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def send(
        self, message: EmailMessage | bytes, sender: str, recipients: Iterable[str]
    ) -> SendResult:
        """As ``SmtpSink.send``, over this session's connection."""
        targets = list(recipients)
        if not targets:
            msg = "a mail needs at least one recipient"
            raise ValueError(msg)
        sink = self.sink
        try:
            if self._client is None or not self._client.is_connected:
                self._client = sink._client()
                await self._client.connect()
            if isinstance(message, bytes):
                refused, reply = await self._client.sendmail(sender, targets, message)
            else:
                refused, reply = await self._client.send_message(
                    message, sender=sender, recipients=targets
                )
        except (aiosmtplib.SMTPException, OSError) as exc:
            await self._drop()
            raise _mapped(sink, exc) from exc
        except BaseException:
            await self._drop()
            raise
        return SendResult(
            reply=reply,
            refused={address: (answer.code, answer.message) for address, answer in refused.items()},
        )

    async def close(self) -> None:
        """Say QUIT (or just drop a connection that cannot)."""
        client, self._client = self._client, None
        if client is None or not client.is_connected:
            return
        try:
            await client.quit()
        except (aiosmtplib.SMTPException, OSError):
            client.close()

    async def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None and client.is_connected:
            client.close()


def _mapped(sink: SmtpSink, exc: aiosmtplib.SMTPException | OSError) -> MailTransportError:
    """The ``MailTransportError`` an aiosmtplib failure means (see the module's text)."""
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        return _recipients_refused(sink, exc)
    if isinstance(
        exc,
        aiosmtplib.SMTPSenderRefused | aiosmtplib.SMTPDataError | aiosmtplib.SMTPRecipientRefused,
    ):
        msg = f"smtp server {sink.host}:{sink.port} refused the mail: {exc.code} {exc.message}"
        return MailTransportError(msg, permanent=_is_5xx(exc.code), code=exc.code)
    if isinstance(exc, aiosmtplib.SMTPResponseException):
        # Greeting, EHLO, STARTTLS or AUTH: about the server or our settings, not the mail.
        msg = f"smtp server {sink.host}:{sink.port} answered {exc.code} {exc.message}"
        return MailTransportError(msg, permanent=False, code=exc.code)
    msg = f"smtp server {sink.host}:{sink.port} unreachable: {exc}"
    return MailTransportError(msg, permanent=False)


def _is_5xx(code: int) -> bool:
    return 500 <= code <= 599


def _recipients_refused(
    sink: SmtpSink, exc: aiosmtplib.SMTPRecipientsRefused
) -> MailTransportError:
    answers = list(exc.recipients)
    codes = [answer.code for answer in answers]
    details = ", ".join(
        f"{answer.recipient} ({answer.code} {answer.message})" for answer in answers
    )
    msg = f"smtp server {sink.host}:{sink.port} refused every recipient: {details}"
    # Temporary if any recipient might pass later: the retry then reaches it.
    permanent = bool(codes) and all(_is_5xx(code) for code in codes)
    return MailTransportError(msg, permanent=permanent, code=min(codes, default=None))
