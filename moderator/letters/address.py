"""
The letters of a change of address (``service.address_change``): the request to the old
address (the new address and its token in the private part: the new address is not
registered yet, text the requester chose, so it is not signed), the word to the new
address that confirmation was asked, the move done, the change cancelled.  ``others``
counts the mail's lines beside the one carried out, which were not read.
"""

from __future__ import annotations

from moderator.letters.templates import letter, render
from moderator.letters.texts import Texts


@letter("player.address-request.txt.j2", "player.address-token.txt.j2")
def request(old: str, new: str, token: str, *, key: bool, until: str, others: int) -> Texts:
    """To ``old``: confirm the move to ``new`` with ``token`` before ``until`` (``key``:
    the request was signed with his key, else it held his secret line)."""
    private = render("player.address-token.txt.j2", old=old, new=new, token=token)
    public = render(
        "player.address-request.txt.j2", others=others, old=old, new=new, key=key, until=until
    )
    return Texts("Confirm the move of your account", public, private)


@letter("player.address-asked.txt.j2")
def asked(old: str, new: str, *, until: str, others: int) -> Texts:
    """To ``new``: confirmation was asked of ``old``, before ``until``."""
    text = render("player.address-asked.txt.j2", others=others, old=old, new=new, until=until)
    return Texts("Change of address asked", text)


@letter("player.address-moved.txt.j2")
def moved(old: str, new: str, games: str, *, here: bool, others: int) -> Texts:
    """The account moved from ``old`` to ``new``: to the new address (``here``) or the old."""
    text = render(
        "player.address-moved.txt.j2", others=others, here=here, old=old, new=new, games=games
    )
    return Texts("Your account moved here" if here else "Your account moved", text)


@letter("player.address-cancelled.txt.j2")
def cancelled(old: str, new: str, *, others: int) -> Texts:
    """The answer to ``cancel address change``: the account stays at ``old``."""
    text = render("player.address-cancelled.txt.j2", others=others, old=old, new=new)
    return Texts("Change of address cancelled", text)


__all__ = ["asked", "cancelled", "moved", "request"]
