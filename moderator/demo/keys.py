"""
The demo's GnuPG keys: a key pair for the moderator and one per robot, each in a
temporary home under /tmp (gpg-agent's socket path must stay short), and what is kept
of them for a person to read the demo's mailboxes afterwards (``keep``): each robot's
home in ``DIR/players/<name>/gnupg``, the moderator's public key in
``DIR/moderator.asc`` and ``DIR/README.txt`` saying how to read a mailbox with mutt or
gpg.  The mailboxes themselves are written with LF line ends (``lf_line_ends``), as
mbox files on Unix are.

The robots named in ``play.robot_games.DEFAULT_NAMES`` use the key pairs shipped in
``robot_keys/`` (made once, dated 2025-01-01, without a passphrase): a robot's mail
carries its signature, the signature depends on the key, and the dice hang on the
mail's digest, so a demo replays its seed only with the same keys.  They are demo keys
for addresses under ``.invalid``, published with the code: never trust them for
anything else.  Other names (the tournament's director and standby) get new keys.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from moderator.clock import Clock
from moderator.mail.gpg import Keyring
from moderator.testing.gnupg import drop_gnupg_home, keyring, new_gnupg_home, stop_agent

MODERATOR = "moderator@titan.invalid"
ROBOT_DOMAIN = "robots.titan.invalid"
#: The robots' shipped key pairs, one armored secret key per name (``ann.asc``, ...).
ROBOT_KEYS = Path(__file__).with_name("robot_keys")


def robot_address(name: str) -> str:
    return f"{name.lower()}@{ROBOT_DOMAIN}"


def lf_line_ends(raw: bytes) -> bytes:
    """A mail's bytes with LF line ends, as an mbox file on Unix holds them (mail
    programs verify signatures over the canonical CRLF form whatever the file has)."""
    return raw.replace(b"\r\n", b"\n")


def shipped_key(name: str) -> str | None:
    """The robot's shipped secret key (armored), or None if none is shipped for ``name``."""
    path = ROBOT_KEYS / f"{name.lower()}.asc"
    return path.read_text() if path.is_file() else None


@dataclass
class DemoKeys:
    """Key pairs in temporary GnuPG homes: the moderator's and one per robot."""

    moderator_home: Path
    moderator_key: str
    robots: dict[str, tuple[Keyring, str]]
    homes: list[Path]
    clock: Clock | None = None

    @classmethod
    async def make(
        cls, names: list[str], clock: Clock | None = None
    ) -> DemoKeys:
        """
        Make the keys (each robot holds the moderator's public key; a robot with a
        shipped key pair gets that one).  The robots sign at ``clock``'s time, the
        moderator's: on the demo's clock, a signature made at the machine's time would
        look weeks old or new to the moderator, and be refused.
        """
        homes = [new_gnupg_home("dmod")]
        keys = cls(homes[0], "", {}, homes, clock)
        try:
            ring = keyring(keys.moderator_home)  # the operator's gpg --gen-key, as it were
            keys.moderator_key = await asyncio.to_thread(
                ring.generate_key, "Titan moderator", MODERATOR
            )
            public = ring.export_public(keys.moderator_key)
            for name in names:
                homes.append(new_gnupg_home("d" + name[:3].lower()))
                robot_ring = keyring(
                    homes[-1], clock=clock.now if clock is not None else None, frozen=True
                )
                armored = shipped_key(name)
                if armored is None:
                    key = await asyncio.to_thread(
                        robot_ring.generate_key, name, robot_address(name)
                    )
                else:
                    key = (await asyncio.to_thread(robot_ring.import_key, armored))[0]
                robot_ring.import_key(public)
                keys.robots[name] = (robot_ring, key)
        except BaseException:
            keys.drop()
            raise
        return keys

    def drop(self) -> None:
        """Stop the agents and remove the homes."""
        for home in self.homes:
            drop_gnupg_home(home)

    def keep(self, folder: Path, game: str | None = None) -> None:
        """
        Leave in ``folder`` what a person needs to read the demo's mailboxes: each
        robot's GnuPG home (``players/<name>/gnupg``, its agent stopped first), the
        moderator's public key (``moderator.asc``) and ``README.txt`` (its replay
        command names ``game``, if the demo played one game).
        """
        (folder / "moderator.asc").write_text(
            keyring(self.moderator_home).export_public(self.moderator_key)
        )
        names = list(self.robots)
        for name, home in zip(names, self.homes[1:], strict=False):
            stop_agent(home)
            target = folder / "players" / name.lower() / "gnupg"
            shutil.rmtree(target, ignore_errors=True)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(home, target, ignore=shutil.ignore_patterns("S.*", "*.lock", ".#*"))
            target.chmod(0o700)
        (folder / "README.txt").write_text(readme(folder, names, game))


def readme(folder: Path, names: Sequence[str], game: str | None = None) -> str:
    """How to read the demo's mailboxes and replay its game (``README.txt``)."""
    first = names[0].lower() if names else "ann"
    viewer = names[0] if names else "Ann"
    lines = [
        "Titan by mail: what the demo left",
        "=================================",
        "",
        "mail/<name>.mbox       every mail a robot player received from the moderator",
        "mail/moderator.mbox    every mail the moderator received from the players",
        "players/<name>/gnupg   the robot's GnuPG home: his key pair and the moderator's key",
        "moderator.asc          the moderator's public key",
        "demo.sqlite            the game's database",
        "",
        "Each report is signed by the moderator.  Its public part (where the legions are,",
        "what happened) is signed; its private part (what your legions hold, your orders)",
        "is encrypted to the player and not signed: the moderator never signs what a",
        "legion holds (Wolff's errata 4.5), so mail programs say that part of the",
        "message has not been signed.  That is on purpose.",
        "",
        "Read a robot's mail as that robot, with mutt:",
        "",
        f"  GNUPGHOME={folder / 'players' / first / 'gnupg'} \\",
        f"    mutt -R -f {folder / 'mail' / (first + '.mbox')} \\",
        "    -e 'set crypt_use_gpgme=yes crypt_verify_sig=yes'",
        "",
        "mutt shows \"Good signature from: Titan moderator\" above the public part and",
        "decrypts the private part with the robot's key.  With gpg alone: save a part",
        "with mutt (or any mail program) and run",
        "",
        f"  GNUPGHOME={folder / 'players' / first / 'gnupg'} gpg --decrypt FILE",
        "",
        "To replay the game move by move, as one player read it:",
        "",
        f"  titan-moderator local history {game or 'GAME'} --as {viewer} \\",
        f"    --db sqlite:///{folder / 'demo.sqlite'}",
        "",
        *(
            []
            if game
            else ["GAME is one of the games the summary lists; --as names one of its players.",
                  ""]
        ),
    ]
    return "\n".join(lines)


__all__ = [
    "MODERATOR",
    "ROBOT_DOMAIN",
    "DemoKeys",
    "lf_line_ends",
    "readme",
    "robot_address",
    "shipped_key",
]
