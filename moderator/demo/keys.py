"""
What the demo keeps of its GnuPG keys (``testing.player_keys.PlayerKeys``: the
moderator's and the robots', in temporary homes) for a person to read its mailboxes
afterwards (``keep``): each robot's home in ``DIR/players/<name>/gnupg``, the
moderator's public key in ``DIR/moderator.asc`` and ``DIR/README.txt`` saying how to
read a mailbox with mutt or gpg.  The mailboxes are written with LF line ends
(``testing.mailrobot.lf_line_ends``), as mbox files on Unix are.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from moderator.testing.gnupg import keyring, stop_agent
from moderator.testing.player_keys import PlayerKeys


def keep(keys: PlayerKeys, folder: Path, game: str | None = None) -> None:
    """
    Leave in ``folder`` what a person needs to read the demo's mailboxes: each
    robot's GnuPG home (``players/<name>/gnupg``, its agent stopped first), the
    moderator's public key (``moderator.asc``) and ``README.txt`` (its replay
    command names ``game``, if the demo played one game).
    """
    (folder / "moderator.asc").write_text(
        keyring(keys.moderator_home).export_public(keys.moderator_key)
    )
    names = list(keys.robots)
    for name, home in zip(names, keys.homes[1:], strict=False):
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


__all__ = ["keep", "readme"]
