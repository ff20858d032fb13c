"""
The keys of a game by mail between robot players: a key pair for the moderator and one
per robot, each in a temporary GnuPG home under /tmp (gpg-agent's socket path must stay
short).

The robots named in ``usecases.games.robot_games.DEFAULT_NAMES`` sign with key pairs
shipped in ``robot_keys/`` (made once, dated 2025-01-01, without a passphrase): a
robot's mail carries its signature, the signature depends on the key, and the dice
hang on the mail's digest, so a demo or a test replays its seed only with the same
keys.  They are keys for addresses under ``.invalid``, published with the code: never
trust them for anything else.  Other names (a tournament's director and standby) get
new keys.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from moderator.clock import Clock
from moderator.mail.gpg import Keyring
from moderator.testing.gnupg import drop_gnupg_home, keyring, new_gnupg_home

#: The moderator's address in a game between robot players.
MODERATOR = "moderator@titan.invalid"
#: Where the robot players' addresses live.
ROBOT_DOMAIN = "robots.titan.invalid"
#: The robots' shipped key pairs, one armored secret key per name (``ann.asc``, ...).
ROBOT_KEYS = Path(__file__).with_name("robot_keys")


def robot_address(name: str) -> str:
    return f"{name.lower()}@{ROBOT_DOMAIN}"


def shipped_key(name: str) -> str | None:
    """The robot's shipped secret key (armored), or None if none is shipped for ``name``."""
    path = ROBOT_KEYS / f"{name.lower()}.asc"
    return path.read_text() if path.is_file() else None


@dataclass
class PlayerKeys:
    """Key pairs in temporary GnuPG homes: the moderator's and one per robot."""

    moderator_home: Path
    moderator_key: str
    robots: dict[str, tuple[Keyring, str]]
    homes: list[Path]
    clock: Clock | None = None

    @classmethod
    async def make(cls, names: list[str], clock: Clock | None = None) -> PlayerKeys:
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


__all__ = ["MODERATOR", "ROBOT_DOMAIN", "ROBOT_KEYS", "PlayerKeys", "robot_address", "shipped_key"]
