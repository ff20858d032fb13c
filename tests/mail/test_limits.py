"""
The caps on what a stranger's mail may cost before authentication: ``over_limit``.

Each cap is checked at the cap (passes) and one over (refused, with a sentence saying
why); Hypothesis builds mails near every cap, and MIME trees (nested multiparts, attached
mails, delivery-status blocks, digests, broken and reused boundaries, every kind of line
end) whose parts and depth must be counted exactly as the ``email`` package and
``body_text``'s salvage read them; and bytes of any kind must never make it raise.  The
intake path around it is checked to stay fast on inputs that once took seconds.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace
from email.message import Message
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator.mail.body_text import _children  # the salvage extract_text does
from moderator.mail.checks import loop
from moderator.mail.checks.base import Context
from moderator.mail.compose import canonical_crlf, signed_part_bytes
from moderator.mail.html_text import html_to_text
from moderator.mail.intake import extract_text, game_and_player_hints, order_lines, parse, screen
from moderator.mail.limits import DEFAULT_LIMITS, RawLimits, over_limit

HEAD = b"From: Ann <ann@example.org>\nTo: titan@moderator.example\nSubject: orders\n"
ROOMY = RawLimits(
    max_bytes=1 << 24,
    max_lines=1 << 20,
    max_line=1 << 20,
    max_parts=1 << 20,
    max_depth=60,
    max_headers=1 << 20,
    max_header_bytes=1 << 20,
    max_params=1 << 20,
)
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "mail-corpus"


def flat(parts: int, boundary: bytes = b"b") -> bytes:
    """A multipart/mixed mail of ``parts`` text parts."""
    body = b"".join(b"--%s\nContent-Type: text/plain\n\nroll %d\n" % (boundary, n)
                    for n in range(parts))
    return (HEAD + b'Content-Type: multipart/mixed; boundary="' + boundary + b'"\n\n'
            + body + b"--" + boundary + b"--\n")


def nested(depth: int) -> bytes:
    """A mail whose text part lies ``depth`` multiparts deep (depth 0: a plain mail)."""
    inner = b"Content-Type: text/plain\n\nroll\n"
    for level in range(depth, 0, -1):
        inner = (b"Content-Type: multipart/mixed; boundary=n%d\n\n--n%d\n%s--n%d--\n"
                 % (level, level, inner, level))
    return HEAD + inner


def reference(raw: bytes) -> tuple[int, int]:
    """The parts (the top left out) and nesting depth the parser and the salvage make."""
    count, deepest = 0, 0

    def visit(part: Message, depth: int) -> None:
        nonlocal count, deepest
        deepest = max(deepest, depth)
        payload = part.get_payload()
        if part.get_content_maintype() == "multipart":
            kids = _children(part, [])
        else:
            kids = [kid for kid in payload if isinstance(kid, Message)] if isinstance(
                payload, list) else []
        for kid in kids:
            count += 1
            visit(kid, depth + 1)

    visit(parse(raw), 0)
    return count, deepest


# -- each cap: at the cap, and one over --------------------------------------------------


def test_caps_a_plain_order_mail_passes():
    assert over_limit(HEAD + b"\nsplit Rd01 into Rd03: ogre ogre\nroll\n") is None
    assert over_limit(b"") is None


def test_caps_mail_at_the_byte_cap_passes_and_one_byte_over_is_refused():
    mail = HEAD + b"\n" + b"x" * 100 + b"\n"
    assert over_limit(mail, replace(ROOMY, max_bytes=len(mail))) is None
    assert over_limit(mail, replace(ROOMY, max_bytes=len(mail) - 1)) == (
        f"the mail has {len(mail)} bytes (at most {len(mail) - 1} are read)")


def test_caps_lines_are_counted_at_every_kind_of_line_end():
    mail = b"From: a@example.org\r\n\r\none\rtwo\nthree\r\nfour"  # 6 lines, as the parser cuts
    assert over_limit(mail, replace(ROOMY, max_lines=6)) is None
    assert over_limit(mail, replace(ROOMY, max_lines=5)) == (
        "the mail has 6 lines (at most 5 are read)")


def test_caps_a_line_at_the_length_cap_passes_and_one_byte_longer_is_refused():
    mail = HEAD + b"\n" + b"x" * 500 + b"\r\nroll\n"
    assert over_limit(mail, replace(ROOMY, max_line=500)) is None
    assert over_limit(mail, replace(ROOMY, max_line=499)) == (
        "line 5 has 500 bytes (at most 499 are read)")


def test_caps_mail_at_the_part_cap_passes():
    assert over_limit(flat(50)) is None


def test_caps_one_part_over_is_refused():
    assert over_limit(flat(51)) == "the mail has 51 MIME parts (at most 50 are read)"


def test_caps_nesting_at_the_depth_cap_passes_and_one_level_deeper_is_refused():
    assert over_limit(nested(8)) is None
    assert over_limit(nested(9)) == "the mail nests MIME parts 9 deep (at most 8 are read)"


def test_caps_header_fields_at_the_cap_pass_and_one_more_is_refused():
    fields = b"".join(b"X-Field-%d: v\n" % n for n in range(297))  # HEAD has 3
    assert over_limit(HEAD + fields + b"\nroll\n") is None
    assert over_limit(HEAD + fields + b"X-More: v\n\nroll\n") == (
        "the mail's header has 301 header fields (at most 300 are read)")
    part = b"".join(b"X-Field-%d: v\n" % n for n in range(301))
    mail = HEAD + b"Content-Type: multipart/mixed; boundary=b\n\n--b\n" + part + b"\nroll\n"
    assert over_limit(mail) == "part 1 has 301 header fields (at most 300 are read)"


def test_caps_a_folded_header_field_at_the_byte_cap_passes_and_over_is_refused():
    field = b"Autocrypt: addr=ann@example.org; keydata=" + b"\n " + b"A" * 76
    field += b"\n " + b"B" * (8192 - len(field) - 2)
    assert len(field) == 8192
    assert over_limit(HEAD + field + b"\n\nroll\n") is None
    assert over_limit(HEAD + field + b"C\n\nroll\n") == (
        "the mail's header has a field of over 8192 bytes (Autocrypt)")


def test_caps_content_type_parameters_at_the_cap_pass_and_one_more_is_refused():
    params = b"; ".join(b"p%d=v" % n for n in range(32))
    assert over_limit(HEAD + b"Content-Type: text/plain; " + params + b"\n\nroll\n") is None
    assert over_limit(HEAD + b"Content-Type: text/plain; x=y; " + params + b"\n\nroll\n") == (
        "the mail's header has a Content-Type of 33 parameters (at most 32)")


def test_caps_default_limits_are_the_measured_ones():
    assert RawLimits() == DEFAULT_LIMITS
    assert (DEFAULT_LIMITS.max_bytes, DEFAULT_LIMITS.max_parts, DEFAULT_LIMITS.max_depth) == (
        1 << 20, 50, 8)
    assert RawLimits(max_parts=3).max_parts == 3


# -- how parts are found ------------------------------------------------------------------


@pytest.mark.parametrize(
    "content_type",
    [
        b"multipart/mixed; boundary=b",
        b'multipart/mixed; boundary="b"',
        b'Multipart/Mixed;\n\tboundary="b"',
        b"multipart/mixed;\r\n boundary=b; charset=us-ascii",
        b'multipart/mixed; BOUNDARY="b" (a comment)',
    ],
)
def test_caps_boundaries_are_read_quoted_unquoted_and_folded(content_type):
    body = b"--b\nContent-Type: text/plain\n\none\n--b\n\ntwo\n--b--\n"
    mail = HEAD + b"Content-Type: " + content_type + b"\n\n" + body
    assert reference(mail) == (2, 1)
    assert over_limit(mail, replace(ROOMY, max_parts=2, max_depth=1)) is None
    assert over_limit(mail, replace(ROOMY, max_parts=1)) is not None


def test_caps_attached_mails_and_their_parts_count():
    attached = b"Content-Type: message/rfc822\n\n" + flat(3, b"inner")
    mail = HEAD + b"Content-Type: multipart/mixed; boundary=b\n\n--b\n" + attached + b"--b--\n"
    assert reference(mail) == (5, 3)  # the part, the mail in it, its three parts
    assert over_limit(mail, replace(ROOMY, max_parts=5, max_depth=3)) is None
    assert over_limit(mail, replace(ROOMY, max_parts=4)) == (
        "the mail has 5 MIME parts (at most 4 are read)")


def test_caps_delivery_status_blocks_count_as_parts():
    blocks = b"Reporting-MTA: dns; x\n\n" + b"Action: failed\nStatus: 5.0.0\n\n" * 60
    mail = HEAD + b"Content-Type: message/delivery-status\n\n" + blocks
    assert reference(mail)[0] == 61
    assert over_limit(mail) == "the mail has 61 MIME parts (at most 50 are read)"


def test_caps_repeated_delimiters_make_one_part_and_an_outer_boundary_ends_inner_parts():
    inner = b"Content-Type: multipart/mixed; boundary=i\n\n--i\n\none\n--i\n\ntwo\n"
    body = b"--o\n--o\n--o\n" + inner + b"--o\n\nthree\n--i\n\nnot a part of i\n--o--\n"
    mail = HEAD + b"Content-Type: multipart/mixed; boundary=o\n\n" + body
    assert reference(mail) == (4, 2)
    assert over_limit(mail, replace(ROOMY, max_parts=4)) is None
    assert over_limit(mail, replace(ROOMY, max_parts=3)) is not None


def test_caps_parts_salvaged_from_a_boundary_that_never_occurs_count():
    parts = flat(60, b"real").split(b"\n\n", 1)[1]
    mail = HEAD + b"Content-Type: multipart/mixed; boundary=declared\n\n" + parts
    assert reference(mail)[0] == 60
    assert over_limit(mail) == "the mail has 60 MIME parts (at most 50 are read)"


def test_caps_the_3mb_mail_of_20000_parts_is_refused_by_its_size():
    part = b"--z\nContent-Type: text/plain\n\n" + b"x" * 120 + b"\n"
    mail = HEAD + b"Content-Type: multipart/mixed; boundary=z\n\n" + part * 20_000 + b"--z--\n"
    assert len(mail) > 3_000_000
    assert over_limit(mail) == f"the mail has {len(mail)} bytes (at most 1048576 are read)"
    assert over_limit(mail, replace(ROOMY, max_parts=50)) == (
        "the mail has 20000 MIME parts (at most 50 are read)")


# -- Hypothesis: near every cap -----------------------------------------------------------

_CAP = st.integers(min_value=1, max_value=12)
_OFFSET = st.sampled_from([-1, 0, 1])
_ENDS = st.sampled_from([b"\n", b"\r\n", b"\r"])


@given(_CAP, _OFFSET)
def test_caps_parts_near_the_cap(cap, offset):
    result = over_limit(flat(cap + offset), replace(ROOMY, max_parts=cap))
    assert (result is None) == (offset <= 0), result


@given(_CAP, _OFFSET)
def test_caps_depth_near_the_cap(cap, offset):
    result = over_limit(nested(cap + offset), replace(ROOMY, max_depth=cap))
    assert (result is None) == (offset <= 0), result


@given(st.integers(min_value=4, max_value=40), _OFFSET, st.booleans())
def test_caps_header_fields_near_the_cap(cap, offset, in_a_part):
    fields = b"".join(b"X-F%d: v\n" % n for n in range(cap + offset))
    if in_a_part:
        mail = b"Content-Type: multipart/mixed; boundary=b\n\n--b\n" + fields + b"\nroll\n--b--\n"
    else:
        mail = fields + b"\nroll\n"
    result = over_limit(mail, replace(ROOMY, max_headers=cap))
    assert (result is None) == (offset <= 0), result


@given(st.integers(min_value=60, max_value=3000), _OFFSET, _ENDS)
def test_caps_line_length_near_the_cap(cap, offset, end):
    mail = HEAD + b"\n" + b"y" * (cap + offset) + end + b"roll" + end
    result = over_limit(mail, replace(ROOMY, max_line=cap))
    assert (result is None) == (offset <= 0), result


@given(st.integers(min_value=200, max_value=5000), _OFFSET)
def test_caps_size_near_the_cap(cap, offset):
    mail = HEAD + b"\n" + b"z" * (cap + offset - len(HEAD) - 1)
    assert len(mail) == cap + offset
    result = over_limit(mail, replace(ROOMY, max_bytes=cap))
    assert (result is None) == (offset <= 0), result


@given(st.integers(min_value=5, max_value=400), _OFFSET,
       st.lists(st.sampled_from([b"\n", b"\r\n", b"\r"]), min_size=1, max_size=3))
def test_caps_line_count_near_the_cap(cap, offset, ends):
    lines = [b"From: a@example.org", b"X: y", *(b"roll" for _ in range(cap + offset - 2))]
    mail = b"".join(line + ends[n % len(ends)] for n, line in enumerate(lines))
    result = over_limit(mail, replace(ROOMY, max_lines=cap))
    assert (result is None) == (offset <= 0), result


@given(st.integers(min_value=100, max_value=9000), _OFFSET)
def test_caps_header_field_size_near_the_cap(cap, offset):
    name = b"References: "
    folded = name + b"\n ".join(b"<%06d@x>" % n for n in range(cap // 10 + 2))
    field = folded[: cap + offset]
    field = field[:-1] + b"x" if field.endswith(b"\n") else field  # a line end is no byte
    result = over_limit(field + b"\n\nroll\n", replace(ROOMY, max_header_bytes=cap))
    assert (result is None) == (offset <= 0), result


@given(st.integers(min_value=1, max_value=60), _OFFSET)
def test_caps_content_type_parameters_near_the_cap(cap, offset):
    value = b"text/plain" + b"; x=y" * (cap + offset)
    result = over_limit(b"Content-Type: " + value + b"\n\nroll\n", replace(ROOMY, max_params=cap))
    assert (result is None) == (offset <= 0), result


# -- Hypothesis: MIME trees, counted as the email package reads them ----------------------

_BOUNDARIES = [b"b1", b"b2", b"=_x y", b"", b"a--", b"b1--", b"<z>", b"x\\\\y", b"\xe9t", b"b1 "]


@st.composite
def _entity(draw: st.DrawFn, depth: int, outer: tuple[bytes, ...]) -> list[bytes]:
    """The lines of one entity: a header block (maybe broken), a body (maybe parts)."""
    lines: list[bytes] = []
    kind = draw(st.sampled_from(["multipart", "multipart", "message", "status", "text", "none"]))
    boundary = draw(st.sampled_from(_BOUNDARIES))
    if kind == "multipart" and depth < 5:
        subtype = draw(st.sampled_from([b"mixed", b"digest", b"alternative", b"signed"]))
        form = draw(st.sampled_from([b'boundary="%s"', b"boundary=%s", b'boundary="%s',
                                     b"\n boundary=%s", b"boundary*=%s"]))
        lines.append(b"Content-Type: multipart/" + subtype + b"; " + form % boundary)
    elif kind == "message" and depth < 5:
        lines.append(b"Content-Type: message/rfc822")
    elif kind == "status" and depth < 5:
        lines.append(b"Content-Type: message/delivery-status")
    elif kind == "text":
        lines.append(b"Content-Type: text/plain")
    extra = st.sampled_from([b"X-A: 1", b" folded", b"From x", b":bad"])
    lines += draw(st.lists(extra, max_size=2))
    if draw(st.booleans()) or not lines:
        lines.append(b"")
    known = (*outer, boundary) if kind == "multipart" else outer
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        choice = draw(st.integers(min_value=0, max_value=9))
        if choice < 5 and known:
            mark = draw(st.sampled_from(known)) if draw(st.booleans()) else boundary
            lines.append(b"--" + mark + draw(st.sampled_from([b"", b"--", b" ", b"\t--"])))
            if draw(st.booleans()):
                lines += draw(_entity(depth + 1, known))
        elif choice < 7:
            lines.append(draw(st.sampled_from([b"", b"text", b"--zz", b"X-B: 2", b" cont"])))
        elif depth < 5:
            lines += draw(_entity(depth + 1, known))
    if kind == "multipart" and draw(st.booleans()):
        lines.append(b"--" + boundary + b"--")
    return lines


@st.composite
def _mails(draw: st.DrawFn) -> bytes:
    lines = draw(_entity(0, ()))
    return b"".join(line + draw(_ENDS) for line in lines)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_mails())
def test_caps_parts_and_depth_are_counted_as_the_email_package_reads_them(mail):
    parts, depth = reference(mail)
    at = replace(ROOMY, max_parts=parts, max_depth=depth)
    assert over_limit(mail, at) is None
    if parts:
        assert over_limit(mail, replace(at, max_parts=parts - 1)) == (
            f"the mail has {parts} MIME parts (at most {parts - 1} are read)")
    if depth:
        assert "deep" in (over_limit(mail, replace(at, max_depth=depth - 1)) or "")


_PIECES = [b"--b", b"--b--", b"\r\n", b"\n", b"\r", b" ", b"\t", b":", b"\x00", b"\xff",
           b"Content-Type: multipart/mixed; boundary=b", b"Content-Type: message/rfc822",
           b"Content-Type: message/delivery-status", b"Content-Type: multipart/digest; b=",
           b'boundary="', b";", b"From x", b"x"]


@settings(max_examples=300)
@given(st.one_of(st.binary(max_size=3000), st.lists(st.sampled_from(_PIECES)).map(b"".join)))
def test_caps_over_limit_never_raises_on_any_bytes(raw):
    for limits in (DEFAULT_LIMITS, RawLimits(max_bytes=64, max_lines=3, max_parts=1, max_depth=1,
                                             max_headers=1, max_header_bytes=8, max_params=0)):
        result = over_limit(raw, limits)
        assert result is None or (isinstance(result, str) and "could not" not in result)


# -- the real corpus ----------------------------------------------------------------------


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no mail corpus at {CORPUS}")
def test_caps_every_mail_of_the_corpus_passes_the_default_caps():
    refused = {
        str(path.relative_to(CORPUS)): over_limit(path.read_bytes())
        for path in sorted(CORPUS.glob("*/*.eml"))
    }
    assert len(refused) == 60
    assert {name: why for name, why in refused.items() if why} == {}  # none is abusive


# -- the intake path stays fast on what once took seconds ----------------------------------


def _seconds(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def test_bounded_html_of_unfinished_tags_is_read_in_linear_time():
    notes: list[str] = []
    assert _seconds(lambda: html_to_text("x<x" * 33_000, notes)) < 1.0  # took 5 s
    assert _seconds(lambda: html_to_text("<b>" * 33_000, notes)) < 1.0
    assert any(note.startswith("html-truncated") for note in notes)


def test_bounded_html_keeps_its_text_and_notes_what_it_left():
    notes: list[str] = []
    text = html_to_text("<p>roll</p>" + "<b>x</b>" * 10_000, notes)
    assert text.startswith("roll")
    assert notes == ["html-truncated: read 40000 of 80011 characters",
                     "html-truncated: read the first 5000 tags and texts"]


def test_bounded_order_lines_with_long_runs_of_blanks():
    lines = ("game" + " " * 9_000 + "!\n") * 3 + ("secret" + " " * 9_000 + "x y\n") * 3
    assert _seconds(lambda: order_lines(lines + "a" + " " * 9_000 + "b:\n")) < 1.0  # took 3.5 s


def test_bounded_screen_reads_the_first_of_repeated_address_fields():
    sender = b"From: " + b",\n ".join([b'"A B" <a.b@example.org>'] * 300) + b"\n"
    msg = parse(sender * 100 + b"\nroll\n")

    def read() -> None:
        screen(msg, own_addresses={"titan@moderator.example"})
        game_and_player_hints(msg, extract_text(msg).text)

    assert _seconds(read) < 1.0  # took 1.8 s


_RAW_PIECES = [b"--b", b"--b--", b"--bb", b"x--b", b"\n", b"\r\n", b"\r", b" ", b"\t", b"a", b"--"]


@given(st.lists(st.sampled_from(_RAW_PIECES), max_size=16).map(b"".join),
       st.sampled_from(["b", "bb", "", "-"]))
def test_bounded_signed_part_bytes_cuts_what_rfc_1847_signs(raw, boundary):
    """Found with ``bytes.find`` now; the multiline regex it replaced is the oracle."""
    dashed = rb"^--" + re.escape(boundary.encode())
    delimiter = re.compile(dashed + rb"(--)?[ \t]*\r?$", re.MULTILINE)
    opening = next((m for m in delimiter.finditer(raw) if not m.group(1)), None)
    expected = None
    if opening is not None and opening.end() < len(raw):
        start = opening.end() + 1
        closing = delimiter.search(raw, start)
        if closing is not None:
            end = closing.start()
            end -= 2 if raw[end - 2 : end] == b"\r\n" else 1
            expected = raw[start : max(start, end)]
    assert signed_part_bytes(raw, boundary) == expected
    assert canonical_crlf(raw) == re.sub(rb"\r?\n", b"\r\n", raw)


@given(st.text(alphabet="ab@ <>,;:\"()[]\t\n", max_size=40))
def test_bounded_x_loop_finds_the_addresses_the_old_pattern_found(value):
    """Words split at the address delimiters, as ``findall`` of word@word found them."""
    old = re.findall(r"[^\s<>,;:\"()\[\]]+@[^\s<>,;:\"()\[\]]+", value)
    words = [word for word in loop._BETWEEN.split(value) if "@" in word[1:-1]]
    assert words == old
    for address in old:
        msg = Message()
        msg["X-Loop"] = value.replace("\n", " ")
        ctx = Context(own_addresses=frozenset({address.lower()}), loop_header="")
        assert loop.check(msg, ctx).hit
